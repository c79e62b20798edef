import Foundation
import Synchronization

/// A session's limits on requests in flight, per host and in all, with the queue of requests waiting for a slot.
///
/// A session without limits has no limiter at all: its requests pay one `nil` check per hop. Continuations are
/// resumed only after the lock is released.
final class RequestLimiter: Sendable {
    private typealias Waiter = UnsafeContinuation<FerryError?, Never>

    private let state: Locked<StateMachine<Waiter>>

    /// A limiter, or `nil` when neither limit is set.
    /// - Parameters:
    ///   - perHost: The most requests in flight to one host (scheme, host and port); `nil` for no limit.
    ///   - total: The most requests in flight in all; `nil` for no limit.
    init?(perHost: Int?, total: Int?) {
        guard perHost != nil || total != nil else { return nil }
        state = Locked(StateMachine(perHost: perHost, total: total))
    }

    /// The key a URL's slot is counted under: scheme, host and port (the scheme's default when absent).
    static func hostKey(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" || scheme == "wss" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// Waits, first come first served, until `host` and the session have room, then takes a slot. A stop of
    /// `signal` or a cancellation of the task ends the wait at once and leaves the queue.
    /// - Throws: The stop's reason, or ``FerryError/Reason/cancelled``; no slot is held then.
    func acquire(_ host: String, signal: borrowing StopSignal) async throws(FerryError) {
        guard case .queued(let ticket) = state.withLock({ $0.acquire(host) }) else { return }
        let error: FerryError? = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: Waiter) in
                switch state.withLock({ $0.park(ticket, waiter: continuation) }) {
                case .parked: signal.install { [self] error in cancel(ticket, error: error) }
                case .resume(let error): continuation.resume(returning: error)
                }
            }
        } onCancel: {
            cancel(ticket, error: FerryError(.cancelled))
        }
        signal.removeHandler()
        if let error { throw error }
    }

    /// Gives back a slot of `host`; the earliest waiters that can run now get theirs.
    func release(_ host: String) {
        let granted = state.withLock { $0.release(host) }
        for resumption in granted { resumption.waiter.resume(returning: resumption.error) }
    }

    /// How many requests wait for a slot.
    var waitingCount: Int { state.withLock { $0.waitingCount } }

    /// How many requests hold a slot.
    var inFlightCount: Int { state.withLock { $0.inFlightCount } }

    private func cancel(_ ticket: UInt64, error: FerryError) {
        let resumption = state.withLock { $0.cancel(ticket, error: error) }
        resumption?.waiter.resume(returning: resumption?.error)
    }
}
