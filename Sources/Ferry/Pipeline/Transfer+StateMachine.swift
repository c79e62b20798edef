extension Transfer {
    /// Who runs a transfer and who waits for it: a plain value, tested alone.
    ///
    /// A transfer starts when its task is first awaited (or resumed): the first awaiter runs it in its own task;
    /// later awaiters wait for the same outcome. Cancelled before it started, it never starts.
    struct StateMachine<Waiter> {
        private enum State {
            /// Not started; waiters (only ever from `waitUntilFinished` racing a start) wait for the outcome.
            case idle(waiters: [Waiter])
            case running(waiters: [Waiter])
            case finished(TransferOutcome)
        }

        private var state = State.idle(waiters: [])

        enum ClaimAction {
            /// The caller runs the transfer now, in its task.
            case run
            /// Another task runs it: wait.
            case wait
            /// It is over.
            case finished(TransferOutcome)
        }

        /// An awaiter arrives.
        mutating func claim() -> ClaimAction {
            switch state {
            case .idle(let waiters):
                state = .running(waiters: waiters)
                return .run
            case .running:
                return .wait
            case .finished(let outcome):
                return .finished(outcome)
            }
        }

        enum WaitAction {
            case suspend
            case resume(TransferOutcome)
        }

        /// An awaiter that did not run the transfer waits; an idle transfer keeps it waiting until it runs.
        mutating func wait(_ waiter: Waiter) -> WaitAction {
            switch state {
            case .idle(var waiters):
                waiters.append(waiter)
                state = .idle(waiters: waiters)
                return .suspend
            case .running(var waiters):
                waiters.append(waiter)
                state = .running(waiters: waiters)
                return .suspend
            case .finished(let outcome):
                return .resume(outcome)
            }
        }

        /// The runner finished: the waiters to resume with `outcome`. Only the first outcome counts.
        mutating func finish(_ outcome: TransferOutcome) -> [Waiter] {
            switch state {
            case .idle(let waiters), .running(let waiters):
                state = .finished(outcome)
                return waiters
            case .finished:
                return []
            }
        }

        enum CancelAction {
            case none
            /// Stop the running transfer.
            case stop
            /// It had not started: it is now finished with this outcome; resume these waiters with it.
            case finished([Waiter], TransferOutcome)
        }

        /// `cancel()` was called.
        mutating func cancel(cancelledOutcome: @autoclosure () -> TransferOutcome) -> CancelAction {
            switch state {
            case .idle(let waiters):
                let outcome = cancelledOutcome()
                state = .finished(outcome)
                return .finished(waiters, outcome)
            case .running:
                return .stop
            case .finished:
                return .none
            }
        }

        var isFinished: Bool {
            if case .finished = state { true } else { false }
        }

        var isRunning: Bool {
            if case .running = state { true } else { false }
        }
    }
}
