import Ferry
import FerryTesting
import Foundation
import FerryLocking

/// Counts calls from a `@Sendable` handler.
final class Counter: Sendable {
    private let value = Locked(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// Records the requests a handler saw.
final class RequestLog: Sendable {
    private let requests = Locked<[Request]>([])
    func append(_ request: Request) { requests.withLock { $0.append(request) } }
    var all: [Request] { requests.withLock { $0 } }
}

/// A session whose transport answers with `handler`.
func stubSession(
    configure: (inout Session.Configuration) -> Void = { _ in },
    _ handler: @escaping InMemoryTransport.Handler
) -> Session {
    var configuration = Session.Configuration(
        baseURL: URL(string: "http://stub.test"), transport: InMemoryTransport(handler))
    configure(&configuration)
    return Session(configuration: configuration)
}

/// A handler step that never answers until cancelled, like a server that never replies.
func waitForever() async throws -> Never {
    try await Task.sleep(for: .seconds(3600))
    throw CancellationError()
}

struct ConditionTimedOut: Error {}

/// Polls `condition` until it holds, failing after `limit` (scaled by `FERRY_TEST_TIME_SCALE`): waits for an
/// observable state, never for a guessed time.
func waitUntil(limit: Duration = .seconds(30), _ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + limit.scaled
    while !condition() {
        guard ContinuousClock.now < deadline else { throw ConditionTimedOut() }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// A session whose in-memory server never answers, and a way to wait until a request reached it.
struct StallingServer {
    let session: Session
    private let arrivals: AsyncStream<Void>

    init(configure: @escaping (inout Session.Configuration) -> Void = { _ in }) {
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        self.arrivals = arrivals
        session = stubSession(configure: configure) { _ in
            arrived.yield()
            try await waitForever()
        }
    }

    /// Waits until `count` more requests reached the server (and stalled there).
    func waitForArrivals(_ count: Int = 1) async {
        var iterator = arrivals.makeAsyncIterator()
        for _ in 0..<count { _ = await iterator.next() }
    }
}
