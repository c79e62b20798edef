import Ferry
import FerryTesting
import Foundation
import Testing

struct User: Codable, Equatable {
    var id: Int
    var name: String
}

@Suite("Front door (in memory)")
struct FrontDoorTests {
    let session = stubSession { request in
        switch request.url.path {
        case "/user": .json(#"{"id":42,"name":"Ada"}"#)
        case "/text": .text("héllo")
        default: .status(404)
        }
    }

    @Test func decodesAType() async throws {
        let user: User = try await session.get("user").serializingDecodable(User.self)
        #expect(user == User(id: 42, name: "Ada"))
    }

    @Test func returnsStringAndData() async throws {
        let text: String = try await session.get("text").serializingString()
        let data: Data = try await session.get("text").serializingData()
        #expect(text == "héllo")
        #expect(data == Data("héllo".utf8))
    }

    @Test func failsOnErrorStatusByDefault() async throws {
        let error = await #expect(throws: FerryError.self) {
            try await session.get("missing").serializingData()
        }
        #expect(error?.reason == .unacceptableStatus(404))
        #expect(error?.statusCode == 404)
    }

    @Test func dataTaskResponseCarriesEverything() async throws {
        let task = session.get("user")
        let response = await task.serialized(by: .decodable(User.self)).response
        #expect(response.value == User(id: 42, name: "Ada"))
        #expect(response.statusCode == 200)
        #expect(response.request?.url.absoluteString == "http://stub.test/user")
        #expect(response.response?.headers["content-type"] == "application/json")
        #expect(response.data?.count == 22)
        #expect(response.metrics.bytesReceived == 22)
        #expect(response.metrics.redirectCount == 0)
        let timeline = response.timeline
        let firstByte = try #require(timeline.firstResponseByte)
        #expect(timeline.requestStart <= firstByte)
        #expect(firstByte <= timeline.requestCompleted)
        #expect(try #require(timeline.serializationCompleted) >= timeline.requestCompleted)
        #expect(timeline.totalDuration >= timeline.requestDuration)
    }

    @Test func invalidURLIsATypedError() async throws {
        let error = await #expect(throws: FerryError.self) {
            try await Session(transport: InMemoryTransport { _ in .status(200) }).get("not a url").serializingData()
        }
        guard case .invalidURL = error?.reason else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        #expect(error?.statusCode == nil)
    }

    @Test func relativeURLWithoutBaseURLIsInvalid() async throws {
        let session = Session(transport: InMemoryTransport { _ in .status(200) })
        let result = await session.get("users/1").result
        guard case .failure(let error) = result, case .invalidURL = error.reason else {
            Issue.record("expected invalidURL, got \(result)")
            return
        }
    }

    @Test(arguments: ["ftp://host/file", "http://", "file:///etc/passwd"])
    func rejectsNonHTTPURLs(url: String) async throws {
        let session = Session(transport: InMemoryTransport { _ in .status(200) })
        let result = await session.get(url).result
        guard case .failure(let error) = result, case .invalidURL = error.reason else {
            Issue.record("expected invalidURL for \(url), got \(result)")
            return
        }
    }

    @Test func baseURLKeepsItsPath() async throws {
        let log = RequestLog()
        let session = stubSession(configure: { $0.baseURL = URL(string: "http://stub.test/v2/") }) { request in
            log.append(request)
            return .status(204)
        }
        _ = try await session.get("/users/1").serializingData()
        _ = try await session.get("users/2").serializingData()
        #expect(log.all.map(\.url.absoluteString) == ["http://stub.test/v2/users/1", "http://stub.test/v2/users/2"])
    }
}
