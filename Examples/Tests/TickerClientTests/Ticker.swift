import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import TickerClient

/// The ticker server: `GET /ticks?count=N` sends tick 0 at once, then holds the rest until the test releases them.
final class Ticker: Sendable {
    private let gate = AsyncStream<Void>.makeStream()
    private let holding = Mutex(false)

    /// Whether the server sent the first tick and waits to send the others.
    var held: Bool { holding.withLock { $0 } }

    func release() {
        gate.continuation.finish()
    }

    func run<Value: Sendable>(_ body: @Sendable (URL) async throws -> Value) async throws -> Value {
        let router = Router()
        router.get("ticks") { [self] request, _ -> Response in
            let count = request.uri.queryParameters.get("count", as: Int.self) ?? 3
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream"],
                body: .init { writer in
                    for index in 0..<count {
                        if index == 1 {
                            self.holding.withLock { $0 = true }
                            for await _ in self.gate.stream {}
                        }
                        let event = "data: {\"index\":\(index)}\n\n"
                        try await writer.write(ByteBuffer(string: event))
                    }
                    try await writer.finish(nil)
                })
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in
            try await body(URL(string: "http://127.0.0.1:\(client.port!)")!)
        }
    }
}
