import Foundation
import Hummingbird
import HummingbirdTesting
import QuoteService
import Synchronization

/// The upstream price service, a second Hummingbird application on loopback: `/prices/:symbol` answers at once,
/// `/prices/SLOW` only when the test opens the gate.
final class Upstream: Sendable {
    private let gate = AsyncStream<Void>.makeStream()
    private let arrivals = Mutex(0)

    var arrived: Int { arrivals.withLock { $0 } }

    func open() {
        gate.continuation.finish()
    }

    func makeApplication() -> some ApplicationProtocol {
        let router = Router()
        router.get("prices/:symbol") { [self] _, context -> Response in
            let symbol = try context.parameters.require("symbol")
            arrivals.withLock { $0 += 1 }
            if symbol == "SLOW" {
                for await _ in gate.stream {}
            }
            if symbol == "NONE" { throw HTTPError(.notFound) }
            let body = try JSONEncoder().encode(Price(symbol: symbol, cents: 12_345))
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// Runs the upstream on an ephemeral loopback port for the duration of `body`.
    func run<Value: Sendable>(_ body: @Sendable (URL) async throws -> Value) async throws -> Value {
        try await makeApplication().test(.live) { client in
            try await body(URL(string: "http://127.0.0.1:\(client.port!)/")!)
        }
    }
}

/// Polls `condition` until it holds (a state, not a guessed time), failing after `limit`.
func waitUntil(limit: Duration = .seconds(10), _ condition: @Sendable () async -> Bool) async throws {
    let deadline = ContinuousClock.now + limit
    while !(await condition()) {
        guard ContinuousClock.now < deadline else { throw ConditionTimedOut() }
        try await Task.sleep(for: .milliseconds(5))
    }
}

struct ConditionTimedOut: Error {}
