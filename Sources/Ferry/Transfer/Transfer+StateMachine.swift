extension Transfer {
    /// Who sends a request, who reads its body, and who waits for what: a plain value, tested alone.
    ///
    /// Every kind of transfer (data, download, stream) goes through the same phases:
    ///
    /// ```
    /// idle ──claim──▶ opening ──head──▶ open ⇄ reading ──▶ finished
    ///   │                               │                      ▲
    ///   │                               └─ stop ─▶ dropping ───┤
    ///   └─────────────────── cancel ───────────────────────────┘
    /// ```
    ///
    /// - `opening`: one task sends the request (the first that needed the head or the outcome).
    /// - `open`: the final head arrived and its body waits for a reader.
    /// - `reading`: a task holds the body: the one that awaits the outcome (data, download, or a stream nobody
    ///   consumes, whose body is read and dropped), or a stream's consumer between the start and the end of one
    ///   chunk's read. A stream's consumer hands the body back after each chunk (`open` again), so that a stop
    ///   between reads ends the stream at once.
    /// - `dropping`: a stop or an abandon found the body waiting, and drops it; a consumer that comes meanwhile waits
    ///   for the end.
    ///
    /// A waiter needs the head (it resumes once the state is `open`, `reading`, `dropping` or `finished`), the
    /// outcome (once it is `finished`, or `open` with a body it may read), or the end alone (``Need/end``: never
    /// reads). Each resumed waiter claims again: the state machine never hands a continuation a result it could have
    /// gone stale for.
    /// `Head` is the final head as the pipeline judged it; `Body` is what reading the body needs. (The transfer passes
    /// one object for both: the opened request, whose judged head does not change.)
    struct StateMachine<Waiter, Head, Body> {
        /// What a waiter waits for.
        enum Need: Equatable {
            /// The final head.
            case head
            /// The outcome; the waiter reads the body when it may.
            case outcome
            /// The end, without reading.
            case end
        }

        private enum Phase {
            case idle
            case opening
            case open(Head, Body)
            case reading(Head)
            case dropping(Head)
            case finished(TransferOutcome)
        }

        private var phase = Phase.idle
        private var waiters: [(need: Need, waiter: Waiter)] = []
        /// Whether a stream's consumer (its `bytes`) claimed the body: nobody else may read it then.
        private var consumerClaimed = false
        /// Whether an awaiter of the outcome read the body (a stream's, dropped): no consumer can claim it after.
        private var readByAwaiter = false
        /// Whether every task value is gone: a body nobody can read any more is dropped.
        private var abandoned = false

        init() {}

        enum ClaimAction {
            /// Send the request now, in this task.
            case open
            /// Read the body now, in this task; hand it back with ``finish(_:)``.
            case read(Body)
            /// Another task is at work: ``wait(_:for:)``.
            case wait
            /// The head arrived (or was rejected).
            case head(Head)
            /// It is over.
            case finished(TransferOutcome)
        }

        /// A task needs `need`.
        mutating func claim(_ need: Need) -> ClaimAction {
            switch phase {
            case .idle:
                if need == .end { return .wait }
                phase = .opening
                return .open
            case .opening:
                return .wait
            case .open(let head, let body):
                switch need {
                case .head: return .head(head)
                case .end: return .wait
                case .outcome:
                    guard !consumerClaimed else { return .wait }
                    phase = .reading(head)
                    readByAwaiter = true
                    return .read(body)
                }
            case .reading(let head), .dropping(let head):
                return need == .head ? .head(head) : .wait
            case .finished(let outcome):
                return .finished(outcome)
            }
        }

        enum WaitAction {
            case suspend
            /// Claim again at once: the state changed between the claim and the wait.
            case retry
        }

        /// A task whose claim said ``ClaimAction/wait`` waits for a change.
        mutating func wait(_ waiter: Waiter, for need: Need) -> WaitAction {
            if isReady(need) { return .retry }
            waiters.append((need, waiter))
            return .suspend
        }

        private func isReady(_ need: Need) -> Bool {
            switch phase {
            case .idle, .opening: false
            case .open: need == .head || (need == .outcome && !consumerClaimed)
            case .reading, .dropping: need == .head
            case .finished: true
            }
        }

        /// Removes and returns the waiters whose need is now met.
        private mutating func readyWaiters() -> [Waiter] {
            var ready: [Waiter] = []
            var waiting: [(need: Need, waiter: Waiter)] = []
            for entry in waiters {
                if isReady(entry.need) { ready.append(entry.waiter) } else { waiting.append(entry) }
            }
            waiters = waiting
            return ready
        }

        enum OpenedAction {
            /// The opener reads the body on, in its task; resume these waiters (they needed the head).
            case read([Waiter])
            /// The body waits for a reader; resume these waiters.
            case resume([Waiter])
            /// Nobody can read the body any more: drop it and finish.
            case drop
        }

        /// The opener's head arrived; `body` is what reading it needs.
        /// - Parameter keepReading: Whether the opener wants the outcome (it reads the body unless a stream's
        ///   consumer claimed it).
        mutating func opened(_ head: Head, body: Body, keepReading: Bool) -> OpenedAction {
            guard case .opening = phase else { return .drop }
            if keepReading, !consumerClaimed {
                phase = .reading(head)
                readByAwaiter = true
                return .read(readyWaiters())
            }
            if abandoned, !consumerClaimed { return .drop }
            phase = .open(head, body)
            return .resume(readyWaiters())
        }

        enum TakeAction {
            /// Read one chunk, then hand the body back with ``returnBody(_:stopped:)``.
            case read(Body)
            /// The body is being dropped: wait for the end, then take again (which says how it ended).
            case waitForEnd
            /// The body is not there: the transfer ended (with this error, if it failed), or it is not open.
            case ended(FerryError?)
        }

        /// A stream's consumer takes the body for one read.
        mutating func takeBody() -> TakeAction {
            switch phase {
            case .open(let head, let body):
                phase = .reading(head)
                return .read(body)
            case .finished(let outcome):
                return .ended(outcome.error)
            case .dropping:
                return .waitForEnd
            case .idle, .opening, .reading:
                return .ended(nil)
            }
        }

        /// A stream's consumer hands the body back after one read.
        /// - Returns: `false` when the transfer was stopped meanwhile: the consumer must end it.
        mutating func returnBody(_ body: Body, stopped: Bool) -> Bool {
            guard case .reading(let head) = phase, !stopped else { return false }
            phase = .open(head, body)
            return true
        }

        /// Claims a stream's body for its consumer: `false` when someone else already claimed it (another consumer,
        /// or an awaiter of the outcome that reads and drops it).
        mutating func claimConsumer() -> Bool {
            guard !consumerClaimed, !readByAwaiter else { return false }
            switch phase {
            case .reading: return false
            case .idle, .opening, .open, .dropping, .finished:
                consumerClaimed = true
                return true
            }
        }

        /// The transfer ended: the waiters to resume. Only the first outcome counts.
        mutating func finish(_ outcome: TransferOutcome) -> [Waiter] {
            if case .finished = phase { return [] }
            phase = .finished(outcome)
            defer { waiters = [] }
            return waiters.map(\.waiter)
        }

        enum CancelAction {
            case none
            /// Stop the task at work (sending, or reading the body).
            case stop
            /// Nobody is at work: stop, drop the body and finish.
            case drop(Body)
            /// It had not started: it is now finished with this outcome; resume these waiters with it.
            case finished([Waiter], TransferOutcome)
        }

        /// `cancel()` was called.
        mutating func cancel(cancelledOutcome: @autoclosure () -> TransferOutcome) -> CancelAction {
            switch phase {
            case .idle:
                let outcome = cancelledOutcome()
                phase = .finished(outcome)
                defer { waiters = [] }
                return .finished(waiters.map(\.waiter), outcome)
            case .opening, .reading, .dropping:
                return .stop
            case .open(let head, let body):
                phase = .dropping(head)
                return .drop(body)
            case .finished:
                return .none
            }
        }

        /// Every task value is gone: a body that waits for a reader is dropped, now or when its head arrives.
        mutating func abandon() -> CancelAction {
            abandoned = true
            switch phase {
            case .open(let head, let body):
                phase = .dropping(head)
                return .drop(body)
            case .idle, .opening, .reading, .dropping, .finished:
                return .none
            }
        }

        var isIdle: Bool {
            if case .idle = phase { true } else { false }
        }

        var isFinished: Bool {
            if case .finished = phase { true } else { false }
        }

        /// Whether it started and has not finished.
        var isRunning: Bool {
            switch phase {
            case .idle, .finished: false
            case .opening, .open, .reading, .dropping: true
            }
        }

        /// The body while it waits for a reader (for tests and diagnostics).
        var waitingBody: Body? {
            if case .open(_, let body) = phase { body } else { nil }
        }

        /// The outcome, once finished.
        var outcome: TransferOutcome? {
            if case .finished(let outcome) = phase { outcome } else { nil }
        }
    }
}
