import Foundation
import Logging
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

/// A log handler that keeps every message, for tests.
final class RecordingLogHandler: LogHandler, Sendable {
    private let state = Mutex<(messages: [String], metadata: Logger.Metadata, level: Logger.Level)>(([], [:], .trace))

    var messages: [String] { state.withLock { $0.messages } }

    var metadata: Logger.Metadata {
        get { state.withLock { $0.metadata } }
        set { state.withLock { $0.metadata = newValue } }
    }

    var logLevel: Logger.Level {
        get { state.withLock { $0.level } }
        set { state.withLock { $0.level = newValue } }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        state.withLock { $0.messages.append("\(event.message)") }
    }
}
