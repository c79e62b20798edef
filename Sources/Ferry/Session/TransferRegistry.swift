/// The transfers a session is running, and whether it was shut down: touched twice per request (start and end),
/// under a lock, with no hop onto the session's actor.
final class TransferRegistry: Sendable {
    private struct State {
        var running: [ObjectIdentifier: any RunningTransfer] = [:]
        var isShutDown = false
    }

    private let state = Locked(State())

    /// Registers a transfer that starts; `false` once the session is shut down.
    func begin(_ transfer: some RunningTransfer) -> Bool {
        state.withLock { state in
            guard !state.isShutDown else { return false }
            state.running[ObjectIdentifier(transfer)] = transfer
            return true
        }
    }

    /// Forgets a transfer that ended.
    func end(_ transfer: some RunningTransfer) {
        _ = state.withLock { $0.running.removeValue(forKey: ObjectIdentifier(transfer)) }
    }

    /// The running transfers.
    var running: [any RunningTransfer] { state.withLock { Array($0.running.values) } }

    /// How many transfers run.
    var count: Int { state.withLock { $0.running.count } }

    /// Refuses new transfers from now on; returns the running ones, or `nil` when already shut down.
    func shutDown() -> [any RunningTransfer]? {
        state.withLock { state in
            guard !state.isShutDown else { return nil }
            state.isShutDown = true
            return Array(state.running.values)
        }
    }
}

/// A transfer the session can cancel or wait for.
protocol RunningTransfer: AnyObject, Sendable {
    /// Stops the transfer.
    func cancel()
    /// Waits until it finished, without starting it.
    func waitUntilFinished() async
}

extension Transfer: RunningTransfer {}
