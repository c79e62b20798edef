/// The one timer of a session, serving the idle and total timeouts of all its requests.
///
/// A single sleeping task wakes at the earliest instant a request may run out, reports what did, and plans its
/// next wake. A request registers when it starts and cancels its ``Registration`` when it ends; neither spawns a
/// task unless the request may run out before the planned wake, so a steady stream of requests with the same
/// timeouts shares the sleeper planned for the first.
///
/// ``shutdown()`` stops the sleeper and forgets every registration without reporting it. Registrations made after
/// it are accepted and start a new sleeper, so a request that races a session's shutdown keeps its timeouts.
final class TimeoutScheduler: Sendable {
    /// A registered request's handle: it notes activity and ends the registration.
    struct Registration: Sendable {
        /// The registration's key in the scheduler.
        let id: UInt64
        /// The request, whose last activity the idle timeout measures.
        let controls: TransferControls
        /// The clock activity is read from.
        private let clock: any TimeoutClock
        /// The scheduler, weakly: a registration never keeps a session's timer alive.
        private weak let scheduler: TimeoutScheduler?

        /// Creates a handle.
        /// - Parameters:
        ///   - id: The registration's key.
        ///   - controls: The request's controls.
        ///   - scheduler: The scheduler it is registered with.
        fileprivate init(id: UInt64, controls: TransferControls, scheduler: TimeoutScheduler) {
            self.id = id
            self.controls = controls
            self.clock = scheduler.clock
            self.scheduler = scheduler
        }

        /// Records activity now (a chunk moved); resumes a paused idle timeout.
        func noteActivity() {
            controls.activity.note(clock.now)
        }

        /// Stops the idle time from counting (a slow consumer, not the server, holds the transfer back) until the
        /// next ``noteActivity()``.
        func pause() {
            controls.activity.pause()
        }

        /// Ends the registration: its timeout will not be reported. Does nothing when it already fired.
        func cancel() {
            scheduler?.remove(id)
        }
    }

    /// The state under the lock.
    private struct State {
        /// The registered timeouts and the planned wake.
        var machine = StateMachine()
        /// The sleeper, or `nil` when none runs.
        var timer: Task<Void, Never>?
        /// Which sleeper is current; a replaced sleeper that wakes anyway sees a newer one and ends.
        var generation: UInt64 = 0
        /// The next registration's id.
        var nextID: UInt64 = 0
        /// How many sleepers were started.
        var timersStarted = 0
    }

    /// Where the time is read and the sleeper sleeps.
    private let clock: any TimeoutClock
    /// The state.
    private let state = Locked(State())

    /// Creates a scheduler; no task runs until a timeout is registered.
    /// - Parameter clock: The clock; the system's by default.
    init(clock: any TimeoutClock = SystemTimeoutClock()) {
        self.clock = clock
    }

    /// Cancels the sleeper, which holds the scheduler only weakly.
    deinit {
        state.withLock { $0.timer }?.cancel()
    }

    /// The current instant on the scheduler's clock.
    var now: ContinuousClock.Instant { clock.now }

    /// Sleeps on the scheduler's clock (an injected one in tests) until `deadline`.
    func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await clock.sleep(until: deadline)
    }

    /// How many registrations are waiting.
    var count: Int { state.withLock { $0.machine.count } }

    /// How many sleeper tasks were started so far, for diagnostics and tests.
    var timersStarted: Int { state.withLock { $0.timersStarted } }

    /// Registers a request's timeouts, which stop the request (`controls`' signal) with
    /// ``FerryError/Reason/timedOut(_:)`` when one runs out; the idle time counts from now.
    /// - Returns: The registration, or `nil` when the request has no timeout.
    func register(
        idle: Duration?, deadline: Moment?, stopping controls: TransferControls
    ) -> Registration? {
        guard idle != nil || deadline != nil else { return nil }
        let deadline = deadline?.instant
        let now = clock.now
        controls.activity.note(now)
        let (id, replaced) = state.withLock { state -> (UInt64, Task<Void, Never>?) in
            let id = state.nextID
            state.nextID &+= 1
            let action = state.machine.register(id, idle: idle, deadline: deadline, request: controls, now: now)
            guard case .schedule(let wake) = action else { return (id, nil) }
            // Starting a task only enqueues it; the old one is cancelled after the lock is released.
            let replaced = state.timer
            state.generation &+= 1
            state.timersStarted += 1
            state.timer = startTimer(generation: state.generation, wake: wake)
            return (id, replaced)
        }
        replaced?.cancel()
        return Registration(id: id, controls: controls, scheduler: self)
    }

    /// Stops the sleeper and forgets every registration without reporting it (the session cancels those requests).
    ///
    /// Registrations made afterwards are still accepted and start a new sleeper, so a request racing the shutdown
    /// never runs without its timeouts; that sleeper ends by itself once nothing is registered.
    func shutdown() {
        let timer = state.withLock { state -> Task<Void, Never>? in
            state.machine = StateMachine()
            state.generation &+= 1
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    /// Forgets a registration.
    /// - Parameter id: The registration's key.
    private func remove(_ id: UInt64) {
        state.withLock { $0.machine.remove(id) }
    }

    /// Starts a sleeper that wakes at `wake`, reports what ran out and sleeps again until nothing is left.
    /// - Parameters:
    ///   - generation: The sleeper's generation.
    ///   - wake: The first instant to wake at.
    /// - Returns: The sleeper.
    private func startTimer(generation: UInt64, wake: ContinuousClock.Instant) -> Task<Void, Never> {
        // Detached: the session's timer inherits neither the priority nor the task locals of the request that
        // happened to start it. On its own executor: it fires on time when the cooperative threads are all busy.
        Task.detached(executorPreference: TimerExecutor.shared) { [weak self, clock] in
            var wake = wake
            while true {
                do {
                    try await clock.sleep(until: wake)
                } catch {
                    return
                }
                guard let next = self?.fire(generation: generation) else { return }
                wake = next
            }
        }
    }

    /// Reports the registrations that ran out, and says when to wake next.
    /// - Parameter generation: The waking sleeper's generation.
    /// - Returns: The next wake, or `nil` when the sleeper ends (nothing left, or it was replaced).
    private func fire(generation: UInt64) -> ContinuousClock.Instant? {
        let now = clock.now
        let fired = state.withLock { state -> StateMachine.Fired? in
            guard state.generation == generation else { return nil }
            let fired = state.machine.timerFired(now: now)
            if fired.next == nil { state.timer = nil }
            return fired
        }
        guard let fired else { return nil }
        // Outside the lock: stopping runs the transport's stop handler.
        for expiry in fired.expired {
            expiry.request.signal.stop(FerryError(.timedOut(expiry.kind)))
        }
        return fired.next
    }
}
