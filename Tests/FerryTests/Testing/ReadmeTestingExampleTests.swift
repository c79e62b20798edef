import Ferry
import FerryTesting
import Foundation
import Testing

// The README's FerryTesting example, as printed there (its `User` nested, to keep it out of other tests' way).
@Suite("README: testing an API client with FerryTesting")
struct ReadmeTestingExampleTests {
    struct User: Codable, Equatable { var id: Int; var name: String }

    @Test func createsAUserAndSurvivesAReset() async throws {
        let recorder = RequestRecorder()
        let session = Session(
            transport: InMemoryTransport(
                recorder: recorder,
                routes: [
                    .post("/users", .json(#"{"id":7,"name":"Ada"}"#, statusCode: 201)),
                    .get("/users/:id", .failure(.connectionReset)),
                ]))
        let created = try await session.post("http://api.test/users", body: .json(User(id: 0, name: "Ada")))
            .serializingDecodable(User.self)
        #expect(created == User(id: 7, name: "Ada"))
        let sent = try #require(try recorder.verify(.post, "/users"))
        #expect(sent.headers["Content-Type"] == "application/json")
        let error = await session.get("http://api.test/users/7").response.error
        #expect(error?.reason == .transport(.connectionLost))
    }
}
