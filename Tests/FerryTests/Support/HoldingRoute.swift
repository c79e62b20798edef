import Dispatch
import FerryTestServer
import Foundation
import Synchronization
import FerryLocking

/// A server route that holds every request until the test lets it go, counting the requests inside it (in all and
/// per `Host`) and the order they arrived in: server-side gating, no sleeps.
final class HoldingRoute: Sendable {
    private struct State {
        var inside = 0
        var mostInside = 0
        var insideByHost: [String: Int] = [:]
        var mostInsideByHost: [String: Int] = [:]
        var arrivals: [String] = []
    }

    private let state = Locked(State())
    private let gate = DispatchSemaphore(value: 0)

    /// The handler to install on the server.
    var handler: TestServer.Handler {
        { [self] request in hold(request) }
    }

    /// Lets `count` held (or future) requests through.
    func release(_ count: Int = 1) {
        for _ in 0..<count { gate.signal() }
    }

    /// How many requests are inside now.
    var inside: Int { state.withLock { $0.inside } }
    /// The most requests that were ever inside at once.
    var mostInside: Int { state.withLock { $0.mostInside } }
    /// The most requests that were ever inside at once for a `Host` header.
    func mostInside(host: String) -> Int { state.withLock { $0.mostInsideByHost[host] ?? 0 } }
    /// How many requests are inside now for a `Host` header.
    func inside(host: String) -> Int { state.withLock { $0.insideByHost[host] ?? 0 } }
    /// The `id` query item of every request, in the order they arrived.
    var arrivals: [String] { state.withLock { $0.arrivals } }

    private func hold(_ request: TestRequest) -> TestResponse {
        let host = request.header("Host") ?? ""
        state.withLock { state in
            state.inside += 1
            state.mostInside = max(state.mostInside, state.inside)
            state.insideByHost[host, default: 0] += 1
            state.mostInsideByHost[host] = max(state.mostInsideByHost[host] ?? 0, state.insideByHost[host] ?? 0)
            state.arrivals.append(request.query("id") ?? "")
        }
        // Bounded, so that a failing test cannot keep a server thread forever.
        _ = gate.wait(timeout: .now() + 30)
        state.withLock { state in
            state.inside -= 1
            state.insideByHost[host, default: 1] -= 1
        }
        return .text("released")
    }
}
