@testable import Ferry

/// A clock that moves only when a test advances it, and lets the test wait until something sleeps on it.
final class ManualTimeoutClock: TimeoutClock {
    /// An instant on the continuous clock.
    typealias Instant = ContinuousClock.Instant
    /// A test waiting for sleepers; resumed with their deadlines.
    private typealias Waiter = CheckedContinuation<[Instant], Never>

    /// A sleeper's progress.
    private enum Sleeper {
        /// The sleep began but has not suspended yet.
        case starting
        /// The sleeping task was cancelled before it suspended.
        case cancelled
        /// Suspended until the deadline.
        case waiting(deadline: Instant, continuation: CheckedContinuation<Void, any Error>)
    }

    /// The clock's state.
    private struct State {
        /// The current instant.
        var now: Instant
        /// The sleepers, by id.
        var sleepers: [UInt64: Sleeper] = [:]
        /// The next sleeper's id.
        var nextID: UInt64 = 0
        /// Tests waiting for a number of suspended sleepers.
        var waiters: [(count: Int, continuation: Waiter)] = []

        /// The deadlines of the suspended sleepers, earliest first.
        var deadlines: [Instant] {
            sleepers.values.compactMap { sleeper in
                guard case .waiting(let deadline, _) = sleeper else { return nil }
                return deadline
            }.sorted()
        }

        /// Removes and returns the waiters that are satisfied, with the deadlines to hand them.
        mutating func readyWaiters() -> [(Waiter, [Instant])] {
            let deadlines = deadlines
            let ready = waiters.filter { $0.count <= deadlines.count }
            waiters.removeAll { $0.count <= deadlines.count }
            return ready.map { ($0.continuation, deadlines) }
        }
    }

    /// The state.
    private let state: Locked<State>

    /// Creates a clock stopped at the real current instant.
    init() {
        state = Locked(State(now: .now))
    }

    /// The clock's current instant.
    var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// Moves time forward and wakes every sleeper whose deadline has passed.
    /// - Parameter duration: How far to move.
    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now += duration
            var due: [CheckedContinuation<Void, any Error>] = []
            for (id, sleeper) in state.sleepers {
                guard case .waiting(let deadline, let continuation) = sleeper, deadline <= state.now else { continue }
                state.sleepers[id] = nil
                due.append(continuation)
            }
            return due
        }
        for continuation in due {
            continuation.resume()
        }
    }

    /// Suspends until the clock is advanced to `deadline`; returns at once when it already has.
    /// - Parameter deadline: The instant to wake at.
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.sleepers[id] = .starting
            return id
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, ready) = state.withLock { state -> (Result<Void, any Error>?, [(Waiter, [Instant])]) in
                    if case .cancelled = state.sleepers[id] {
                        state.sleepers[id] = nil
                        return (.failure(CancellationError()), [])
                    }
                    if deadline <= state.now {
                        state.sleepers[id] = nil
                        return (.success(()), [])
                    }
                    state.sleepers[id] = .waiting(deadline: deadline, continuation: continuation)
                    return (nil, state.readyWaiters())
                }
                if let outcome { continuation.resume(with: outcome) }
                for (waiter, deadlines) in ready {
                    waiter.resume(returning: deadlines)
                }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                switch state.sleepers[id] {
                case .starting:
                    state.sleepers[id] = .cancelled
                    return nil
                case .waiting(_, let continuation):
                    state.sleepers[id] = nil
                    return continuation
                case .cancelled, nil:
                    return nil
                }
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Waits until at least `count` sleepers are suspended on the clock.
    /// - Parameter count: How many sleepers to wait for.
    /// - Returns: The deadlines of the suspended sleepers, earliest first.
    @discardableResult
    func waitForSleepers(count: Int = 1) async -> [ContinuousClock.Instant] {
        await withCheckedContinuation { continuation in
            let deadlines = state.withLock { state -> [Instant]? in
                let deadlines = state.deadlines
                guard deadlines.count < count else { return deadlines }
                state.waiters.append((count, continuation))
                return nil
            }
            if let deadlines { continuation.resume(returning: deadlines) }
        }
    }

    /// The deadlines of the sleepers suspended right now, earliest first.
    var sleeperDeadlines: [ContinuousClock.Instant] { state.withLock { $0.deadlines } }
}
