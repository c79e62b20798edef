import Ferry
import FerryTestServer
import Foundation
import Testing

/// The README's examples, run against the test server so the documentation cannot drift from the API.
@Suite("README examples")
struct ReadmeExampleTests {
    struct LinesSerializer: ResponseSerializer {
        func serialize(request: Request, response: HTTPResponse, data: Data) throws -> [String] {
            String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        }
    }

    @Test(arguments: TransportKind.allCases) func customSerializer(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let lines = try await live.session.get("text", query: [.init(name: "text", value: "one\ntwo")])
            .serializing(LinesSerializer())
        #expect(lines == ["one", "two"])
    }

    @Test(arguments: TransportKind.allCases) func formFromADictionaryAndQueryEscaping(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let form = try await live.session.post("anything", body: .form(["user": "ada", "password": "a b&c"]))
            .serializingJSON()
        #expect(form["form"]?["password"] == "a b&c")
        let search = try await live.session.get("get", query: [URLQueryItem(name: "q", value: "a b&c")])
            .serializingJSON()
        #expect(search["args"]?["q"] == "a b&c")
    }

    @Test(arguments: TransportKind.allCases) func switchingOnTheReason(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        do {
            _ = try await live.session.get("status/404").serializingData()
            Issue.record("a 404 must throw")
        } catch {
            switch error.reason {
            case .unacceptableStatus(404): #expect(error.statusCode == 404)
            default: Issue.record("unexpected \(error)")
            }
        }
    }

    @Test(arguments: TransportKind.allCases) func customValidatorRejects(transport: TransportKind) async throws {
        struct MissingSignature: Error {}
        let live = try LiveServer(transport: transport)
        let error = await #expect(throws: FerryError.self) {
            try await live.session.get("get").validate { _, response, _ in
                guard response.headers["X-Signature"] != nil else { throw MissingSignature() }
            }.value
        }
        #expect(error?.reason == .validationFailed)
        #expect(error?.underlyingError is MissingSignature)
    }
}
