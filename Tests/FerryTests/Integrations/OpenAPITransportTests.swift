#if OpenAPI
import Ferry
import FerryOpenAPI
import FerryTestServer
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@Suite("FerryOpenAPITransport (OpenAPI trait) against the test server")
struct OpenAPITransportTests {
    private func transport(_ live: borrowing LiveServer) -> FerryOpenAPITransport {
        FerryOpenAPITransport(live.session)
    }

    @Test(arguments: TransportKind.allCases) func aStreamedBodyIsSentAndTheResponseComesBack(
        transport kind: TransportKind
    ) async throws {
        let live = try LiveServer(transport: kind)
        var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/anything?op=1")
        request.headerFields[.contentType] = "text/plain"
        let parts: [ArraySlice<UInt8>] = [ArraySlice("hello, ".utf8), ArraySlice("openapi".utf8)]
        let body = HTTPBody(
            AsyncStream { continuation in
                for part in parts { continuation.yield(part) }
                continuation.finish()
            }, length: .known(14))
        let answer: (HTTPTypes.HTTPResponse, HTTPBody?)
        do {
            answer = try await transport(live).send(
                request, body: body, baseURL: live.server.baseURL, operationID: "echo")
        } catch {
            // Once seen in CI under the full suite's load, an idle timeout (2026-11-29): where did it stall? No
            // connection: the request never started; a connection and no request: the body was never pulled; a
            // request: the answer was not picked up.
            Issue.record(
                "the server saw \(live.server.connectionCount) connection(s), \(live.server.requestCount) request(s)")
            throw error
        }
        let (response, responseBody) = answer
        #expect(response.status == .ok)
        let echoed = try await JSON(parsing: Data(collecting: try #require(responseBody), upTo: 1 << 20))
        #expect(echoed["data"] == "hello, openapi")
        #expect(echoed["args"]?["op"] == "1")
        #expect(echoed["headers"]?["Content-Type"] == "text/plain")
        #expect(echoed["method"] == "POST")
    }

    @Test(arguments: TransportKind.allCases) func repeatedResponseFieldsStaySeparate(
        transport kind: TransportKind
    ) async throws {
        let live = try LiveServer(transport: kind)
        let request = HTTPRequest(
            method: .get, scheme: nil, authority: nil, path: "/response-headers?X-Multi=a&X-Multi=b")
        let (response, _) = try await transport(live).send(
            request, body: nil, baseURL: live.server.baseURL, operationID: "headers")
        let values = response.headerFields[values: HTTPField.Name("X-Multi")!]
        if kind == .urlSession {
            // FoundationNetworking joins repeated fields into one value before Ferry sees them.
            #expect(values == ["a, b"])
        } else {
            #expect(values == ["a", "b"])
        }
    }

    @Test(arguments: TransportKind.allCases) func statusesAreLeftToTheClient(transport kind: TransportKind) async throws
    {
        let live = try LiveServer(transport: kind)
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/status/503")
        let (response, _) = try await transport(live).send(
            request, body: nil, baseURL: live.server.baseURL, operationID: "status")
        #expect(response.status.code == 503)
        let head = HTTPRequest(method: .head, scheme: nil, authority: nil, path: "/bytes/100")
        let (headResponse, headBody) = try await transport(live).send(
            head, body: nil, baseURL: live.server.baseURL, operationID: "head")
        #expect(headResponse.status == .ok)
        #expect(headBody == nil)
    }

    /// The first event arrives while the server still holds the rest back for a minute: the body streams.
    @Test(arguments: TransportKind.allCases) func serverSentEventsStreamAsTheyArrive(
        transport kind: TransportKind
    ) async throws {
        let live = try LiveServer(transport: kind)
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/sse?count=3&interval=60")
        let (response, body) = try await transport(live).send(
            request, body: nil, baseURL: live.server.baseURL, operationID: "events")
        #expect(response.headerFields[.contentType] == "text/event-stream")
        let events = try #require(body).asDecodedServerSentEvents()
        let first = try await withThrowingTaskGroup(of: OpenAPIRuntime.ServerSentEvent?.self) { group in
            group.addTask {
                var iterator = events.makeAsyncIterator()
                return try await iterator.next()
            }
            group.addTask {
                // A watchdog, not a synchronisation: a buffered body would hold the first event for minutes.
                try await Task.sleep(for: .seconds(30))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        let event = try #require(first, "the first event did not arrive while the stream was open")
        #expect(event.data?.isEmpty == false)
    }

    @Test(arguments: TransportKind.allCases) func aSingleUseBodyIsNeverReplayedOnARedirect(
        transport kind: TransportKind
    ) async throws {
        let live = try LiveServer(transport: kind)
        let target = live.server.url("/anything").absoluteString
        let escaped = try #require(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let request = HTTPRequest(
            method: .post, scheme: nil, authority: nil, path: "/redirect-to?status_code=307&url=\(escaped)")
        let body = HTTPBody(
            AsyncStream { continuation in
                continuation.yield(ArraySlice("once".utf8))
                continuation.finish()
            }, length: .unknown)
        do {
            let (response, responseBody) = try await transport(live).send(
                request, body: body, baseURL: live.server.baseURL, operationID: "redirect")
            // A transport that had to spool the stream (URLSession) resends the spooled copy, never the sequence.
            #expect(response.status == .ok)
            let echoed = try await JSON(parsing: Data(collecting: try #require(responseBody), upTo: 1 << 20))
            #expect(echoed["data"] == "once")
        } catch let error as FerryError {
            guard case .invalidRequest = error.reason else { throw error }
        }
    }
}
#endif
