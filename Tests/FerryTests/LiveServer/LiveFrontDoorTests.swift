import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("URLSession transport against the test server")
struct LiveFrontDoorTests {
    struct Profile: Decodable, Equatable {
        var id: Int
        var name: String
        var email: String
    }

    @Test(arguments: TransportKind.allCases) func frontDoorLines(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let session = live.session
        let json: JSON = try await session.get("get", query: [URLQueryItem(name: "a", value: "1")]).serializingJSON()
        #expect(json["args"]?["a"] == "1")
        let user = try await session.get(live.server.url("/json/user")).serializingDecodable(Profile.self)
        #expect(user == Profile(id: 42, name: "Ada Lovelace", email: "ada@example.com"))
        let text: String = try await session.get("json/user").serializingString()
        #expect(text.contains("Ada Lovelace"))
        let data: Data = try await session.get("bytes/1000").serializingData()
        #expect(data.count == 1000)
        #expect(data.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
    }

    @Test(arguments: TransportKind.allCases) func exactInt64SurvivesTheWire(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let json = try await live.session.get("json").serializingJSON()
        #expect(json.description.contains("9007199254740993"))
    }

    @Test(arguments: TransportKind.allCases) func postEchoesBodyAndHeaders(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let response = await live.session.post("anything", body: .json(["name": "Ferry"]), headers: ["X-Test": "yes"])
            .serialized(by: .json).response
        let json = try #require(response.value)
        #expect(json["method"] == "POST")
        #expect(json["json"]?["name"] == "Ferry")
        #expect(json["headers"]?["X-Test"] == "yes")
        #expect(response.metrics.bytesSent == 16)
    }

    @Test(arguments: TransportKind.allCases) func errorStatusIsTypedWithBody(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let error = await #expect(throws: FerryError.self) {
            try await live.session.get("status/418").serializingJSON()
        }
        #expect(error?.reason == .unacceptableStatus(418))
        #expect(error?.bodyPrefix.map { String(decoding: $0, as: UTF8.self) }?.contains("418") == true)
    }

    @Test(arguments: TransportKind.allCases) func emptyResponses(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        #expect(try await live.session.get("status/204").serializingJSON() == .null)
        #expect(try await live.session.head("json").serializingData().isEmpty)
        #expect(try await live.session.get("empty/200").serializingString() == "")
        #expect(try await live.session.get("json/space").serializingJSON() == .null)
    }

    @Test(arguments: TransportKind.allCases) func charsetFromContentType(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let text = try await live.session.get(
            "text", query: [.init(name: "charset", value: "iso-8859-1"), .init(name: "text", value: "café")]
        )
        .serializingString()
        #expect(text == "café")
    }

    @Test(arguments: TransportKind.allCases) func gzipIsDecoded(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let json = try await live.session.get("gzip").serializingJSON()
        #expect(json.objectValue != nil)
    }

    @Test(arguments: TransportKind.allCases) func unauthorizedDoesNotHang(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let error = await #expect(throws: FerryError.self) { try await live.session.get("unauthorized").value }
        #expect(error?.reason == .unacceptableStatus(401))
        let credentials = Data("user:pass".utf8).base64EncodedString()
        let ok = try await live.session.get("basic-auth/user/pass", headers: ["Authorization": "Basic \(credentials)"])
            .serializingJSON()
        #expect(ok["authenticated"] == true)
        let wrong = await live.session.get("basic-auth/user/pass", headers: ["Authorization": "Basic eDp5"]).response
        #expect(wrong.statusCode == 401)
    }

    @Test(arguments: TransportKind.allCases) func keepAliveReusesConnections(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        for _ in 0..<10 { _ = try await live.session.get("get").serializingData() }
        #expect(live.server.requestCount == 10)
        #expect(live.server.connectionCount <= 2)
    }

    @Test(arguments: TransportKind.allCases) func bodyOverTheLimitFailsAndTheSessionGoesOn(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport) { $0.maximumBodySize = 1000 }
        let error = await #expect(throws: FerryError.self) { try await live.session.get("stream-bytes/100000").value }
        #expect(error?.reason == .bodyTooLarge(limit: 1000))
        let declared = await #expect(throws: FerryError.self) { try await live.session.get("bytes/5000").value }
        #expect(declared?.reason == .bodyTooLarge(limit: 1000))
        #expect(try await live.session.get("bytes/10").serializingData().count == 10)
    }
}
