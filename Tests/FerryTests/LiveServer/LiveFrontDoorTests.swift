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

    @Test func frontDoorLines() async throws {
        let live = try LiveServer()
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

    @Test func exactInt64SurvivesTheWire() async throws {
        let live = try LiveServer()
        let json = try await live.session.get("json").serializingJSON()
        #expect(json.description.contains("9007199254740993"))
    }

    @Test func postEchoesBodyAndHeaders() async throws {
        let live = try LiveServer()
        let response = await live.session.post("anything", body: .json(["name": "Ferry"]), headers: ["X-Test": "yes"])
            .serialized(by: .json).response
        let json = try #require(response.value)
        #expect(json["method"] == "POST")
        #expect(json["json"]?["name"] == "Ferry")
        #expect(json["headers"]?["X-Test"] == "yes")
        #expect(response.metrics.bytesSent == 16)
    }

    @Test func errorStatusIsTypedWithBody() async throws {
        let live = try LiveServer()
        let error = await #expect(throws: FerryError.self) { try await live.session.get("status/418").serializingJSON() }
        #expect(error?.reason == .unacceptableStatus(418))
        #expect(error?.bodyPrefix.map { String(decoding: $0, as: UTF8.self) }?.contains("418") == true)
    }

    @Test func emptyResponses() async throws {
        let live = try LiveServer()
        #expect(try await live.session.get("status/204").serializingJSON() == .null)
        #expect(try await live.session.head("json").serializingData().isEmpty)
        #expect(try await live.session.get("empty/200").serializingString() == "")
        #expect(try await live.session.get("json/space").serializingJSON() == .null)
    }

    @Test func charsetFromContentType() async throws {
        let live = try LiveServer()
        let text = try await live.session.get("text", query: [.init(name: "charset", value: "iso-8859-1"), .init(name: "text", value: "café")])
            .serializingString()
        #expect(text == "café")
    }

    @Test func gzipIsDecoded() async throws {
        let live = try LiveServer()
        let json = try await live.session.get("gzip").serializingJSON()
        #expect(json.objectValue != nil)
    }

    @Test func unauthorizedDoesNotHang() async throws {
        let live = try LiveServer()
        let error = await #expect(throws: FerryError.self) { try await live.session.get("unauthorized").value }
        #expect(error?.reason == .unacceptableStatus(401))
        let credentials = Data("user:pass".utf8).base64EncodedString()
        let ok = try await live.session.get("basic-auth/user/pass", headers: ["Authorization": "Basic \(credentials)"])
            .serializingJSON()
        #expect(ok["authenticated"] == true)
        let wrong = await live.session.get("basic-auth/user/pass", headers: ["Authorization": "Basic eDp5"]).response
        #expect(wrong.statusCode == 401)
    }

    @Test func keepAliveReusesConnections() async throws {
        let live = try LiveServer()
        for _ in 0..<10 { _ = try await live.session.get("get").serializingData() }
        #expect(live.server.requestCount == 10)
        #expect(live.server.connectionCount <= 2)
    }

    @Test func bodyOverTheLimitFailsAndTheSessionGoesOn() async throws {
        let live = try LiveServer { $0.maximumBodySize = 1000 }
        let error = await #expect(throws: FerryError.self) { try await live.session.get("stream-bytes/100000").value }
        #expect(error?.reason == .bodyTooLarge(limit: 1000))
        let declared = await #expect(throws: FerryError.self) { try await live.session.get("bytes/5000").value }
        #expect(declared?.reason == .bodyTooLarge(limit: 1000))
        #expect(try await live.session.get("bytes/10").serializingData().count == 10)
    }
}
