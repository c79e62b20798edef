/// The transfers a session is running, and whether it was shut down: touched twice per request (start and end),
/// under a lock, with no hop onto the session's actor.
final class TransferRegistry: Sendable {
    private struct State {
        var running: [ObjectIdentifier: Transfer] = [:]
        var isShutDown = false
    }

    private let state = Locked(State())

    /// Registers a transfer that starts; `false` once the session is shut down.
    func begin(_ transfer: Transfer) -> Bool {
        state.withLock { state in
            guard !state.isShutDown else { return false }
            state.running[ObjectIdentifier(transfer)] = transfer
            return true
        }
    }

    /// Forgets a transfer that ended.
    func end(_ transfer: Transfer) {
        _ = state.withLock { $0.running.removeValue(forKey: ObjectIdentifier(transfer)) }
    }

    /// The running transfers.
    var running: [Transfer] { state.withLock { Array($0.running.values) } }

    /// How many transfers run.
    var count: Int { state.withLock { $0.running.count } }

    /// Refuses new transfers from now on; returns the running ones, or `nil` when already shut down.
    func shutDown() -> [Transfer]? {
        state.withLock { state in
            guard !state.isShutDown else { return nil }
            state.isShutDown = true
            return Array(state.running.values)
        }
    }
}
