import Ferry
import FerryTesting
import Foundation
import Testing

@Suite("FerryTesting: routes, recorder, failures, delays, streamed chunks")
struct FerryTestingTests {
    struct User: Codable, Equatable {
        var id: Int
        var name: String
    }

    @Test("routes answer by method and path; the recorder sees what was sent")
    func routesAndRecorder() async throws {
        let recorder = RequestRecorder()
        let session = Session(
            transport: InMemoryTransport(
                recorder: recorder,
                routes: [
                    .get("/users/:id", .json(#"{"id":1,"name":"Ada"}"#)),
                    .post("/users") { request in
                        .json(
                            String(decoding: try await request.body?.bytes() ?? Data(), as: UTF8.self), statusCode: 201)
                    },
                ]))
        let user = try await session.get("http://api.test/users/1").serializingDecodable(User.self)
        #expect(user == User(id: 1, name: "Ada"))
        let created = try await session.post("http://api.test/users", body: .json(User(id: 2, name: "Bo")))
            .serializingDecodable(User.self)
        #expect(created.name == "Bo")

        let post = try #require(try recorder.verify(.post, "/users"))
        #expect(post.headers["Content-Type"] == "application/json")
        let sent = try #require(try await post.body?.bytes())
        #expect(try JSONDecoder().decode(User.self, from: sent) == User(id: 2, name: "Bo"))
        try recorder.verify(.get, "/users/1")
        try recorder.verifyNoUnexpectedRequests()
        #expect(recorder.requests.count == 2)
    }

    @Test("an unexpected request fails clearly and is listed")
    func unexpectedRequest() async throws {
        let recorder = RequestRecorder()
        let session = Session(transport: InMemoryTransport(recorder: recorder, routes: [.get("/a", .status(204))]))
        let error = await session.delete("http://api.test/b").response.error
        #expect(error?.reason == .invalidRequest("InMemoryTransport has no route for DELETE /b (routes: GET /a)"))
        #expect(error?.localizedDescription.contains("no route for DELETE /b") == true)
        #expect(recorder.unexpectedRequests.map(\.url.path) == ["/b"])
        #expect {
            try recorder.verifyNoUnexpectedRequests()
        } throws: { error in
            "\(error)" == "1 request(s) matched no route; received:\n  DELETE http://api.test/b"
        }
        #expect {
            try recorder.verify(.get, "/a", count: 2)
        } throws: { error in
            "\(error)".hasPrefix("expected 2 GET /a requests, got 0; received:")
        }
    }

    @Test(
        "stubbed transport failures map to Ferry's reasons and messages",
        arguments: [
            (StubFailure.connectionRefused, FerryError.Reason.transport(.cannotConnect), "connection refused"),
            (.connectionReset, .transport(.connectionLost), "reset"),
            (.timedOut, .timedOut(.idle), "idle timeout"),
            (.hostNotFound, .transport(.hostNotFound), "host not found"),
        ])
    func failures(failure: StubFailure, reason: FerryError.Reason, words: String) async throws {
        let session = Session(transport: InMemoryTransport(routes: [.get("/x", .failure(failure))]))
        let error = await session.get("http://api.test/x").response.error
        #expect(error?.reason == reason)
        #expect(
            error?.localizedDescription.localizedCaseInsensitiveContains(words) == true, "\(String(describing: error))")
    }

    @Test("a body that breaks off keeps the bytes that arrived, for a resume")
    func resetMidBody() async throws {
        let stub = StubResponse(headers: ["Content-Length": "8", "ETag": "\"v1\""], chunks: [Data("abcd".utf8)])
            .failing(with: .connectionReset)
        let session = Session(transport: InMemoryTransport(routes: [.get("/file", stub)]))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stub-\(UUID()).bin")
        let response = await session.download("http://api.test/file", to: file).response
        #expect(response.error?.reason == .transport(.connectionLost))
        let resume = try #require(response.resumeData)
        #expect(resume.byteCount == 4)
        resume.discard()
    }

    @Test("a delay is stopped by the idle timeout")
    func delayStoppedByTimeout() async throws {
        let session = Session(
            configuration: .init(
                idleTimeout: .milliseconds(100),
                transport: InMemoryTransport(routes: [.get("/slow", .status(200).delayed(by: .seconds(30)))])))
        let started = ContinuousClock.now
        let error = await session.get("http://api.test/slow").response.error
        #expect(error?.reason == .timedOut(.idle))
        #expect(started.duration(to: .now) < Duration.seconds(10).scaled)  // no hang
    }

    @Test("streamed chunks arrive one by one, as a stream reads them")
    func streamedChunks() async throws {
        let events = ["data: a\n\n", "data: b\n\n", "data: c\n\n"].map { Data($0.utf8) }
        let session = Session(
            transport: InMemoryTransport(routes: [
                .get(
                    "/events",
                    .streamed(events, interval: .milliseconds(5), headers: ["Content-Type": "text/event-stream"]))
            ]))
        var chunks: [Data] = []
        for try await chunk in session.stream("http://api.test/events").bytes { chunks.append(chunk) }
        #expect(chunks == events)
        var data: [String] = []
        for try await event in session.stream("http://api.test/events").serverSentEvents { data.append(event.data) }
        #expect(data == ["a", "b", "c"])
    }
}
