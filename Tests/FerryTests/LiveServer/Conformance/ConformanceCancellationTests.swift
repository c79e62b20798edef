import Ferry
import FerryTestServer
import Foundation
import Testing

extension ConformanceTests {
    /// Conformance: cancellation before the head, before the body and during it. Each ends at once in
    /// ``FerryError/Reason/cancelled`` (not at the idle timeout, set far away here), and the connection is closed,
    /// not kept or leaked: the server sees it go.
    @Suite("Conformance: cancellation")
    struct Cancellation {
        /// Far beyond any wait below: an end by timeout cannot pass for a cancellation.
        private static let idleTimeout = Duration.seconds(120)
        /// How long a cancellation may take on a loaded machine and still count as prompt.
        private static let prompt = Duration.seconds(20)

        @Test(arguments: TransportKind.allCases, [false, true])
        func cancellingBeforeTheHead(transport: TransportKind, byTask: Bool) async throws {
            // Given: a request the server read but will never answer.
            let live = try LiveServer(transport: transport) { $0.idleTimeout = Self.idleTimeout }
            let request = live.session.get("fault/stall-headers")
            let waiter = Task { await request.response }
            try await waitUntil(limit: .seconds(60)) { live.server.requestCount == 1 }

            // When: the request (or the task awaiting it) is cancelled.
            let start = ContinuousClock.now
            if byTask { waiter.cancel() } else { request.cancel() }
            let response = await waiter.value

            // Then
            #expect(response.error?.reason == .cancelled, "\(String(describing: response.error))")
            #expect(ContinuousClock.now - start < Self.prompt)
            try await waitUntil(limit: Self.prompt) { live.server.openConnectionCount == 0 }
        }

        @Test(arguments: TransportKind.allCases, [false, true])
        func cancellingAfterTheHeadBeforeAnyBody(transport: TransportKind, byTask: Bool) async throws {
            // Given: a head announcing 1,000 bytes, then nothing.
            let live = try LiveServer(transport: transport) { $0.idleTimeout = Self.idleTimeout }
            live.server.setRoute("/head-only") { _ in .fault(.stalledBody(declaredLength: 1_000, sentLength: 0)) }
            let stream = live.session.stream("head-only")
            #expect(try await stream.head.statusCode == 200)

            // When: the body's reader is cancelled while it waits.
            let start = ContinuousClock.now
            let reader = Task { () throws -> Int in
                var count = 0
                for try await chunk in stream.bytes { count += chunk.count }
                return count
            }
            if byTask { reader.cancel() } else { stream.cancel() }
            let result = await reader.result

            // Then
            #expect(Self.reason(of: result) == .cancelled, "\(result)")
            #expect(ContinuousClock.now - start < Self.prompt)
            try await waitUntil(limit: Self.prompt) { live.server.openConnectionCount == 0 }
        }

        @Test(arguments: TransportKind.allCases, [false, true])
        func cancellingDuringTheBody(transport: TransportKind, byTask: Bool) async throws {
            // Given: 100,000 bytes announced, the first 1,000 sent, then nothing.
            let live = try LiveServer(transport: transport) { $0.idleTimeout = Self.idleTimeout }
            live.server.setRoute("/part") { _ in .fault(.stalledBody(declaredLength: 100_000, sentLength: 1_000)) }
            let stream = live.session.stream("part")
            let (firstBytes, gotFirst) = AsyncStream<Int>.makeStream()
            let reader = Task { () throws -> Int in
                var count = 0
                for try await chunk in stream.bytes {
                    if count == 0 { gotFirst.yield(chunk.count) }
                    count += chunk.count
                }
                return count
            }
            var iterator = firstBytes.makeAsyncIterator()
            let first = await iterator.next()

            // When: cancelled while the reader waits for the rest.
            let start = ContinuousClock.now
            if byTask { reader.cancel() } else { stream.cancel() }
            let result = await reader.result

            // Then
            #expect((first ?? 0) > 0)
            #expect(Self.reason(of: result) == .cancelled, "\(result)")
            #expect(ContinuousClock.now - start < Self.prompt)
            try await waitUntil(limit: Self.prompt) { live.server.openConnectionCount == 0 }
            #expect(try await live.session.get("bytes/10").serializingData() == TestServer.patternBytes(count: 10))
        }

        private static func reason(of result: Result<Int, any Error>) -> FerryError.Reason? {
            guard case .failure(let error) = result else { return nil }
            return (error as? FerryError)?.reason
        }
    }
}
