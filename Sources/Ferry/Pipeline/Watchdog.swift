import Dispatch
import Synchronization

/// One request's timeout timer: a Dispatch timer that wakes at the earliest deadline, re-arms while activity keeps
/// moving the idle deadline, and calls `onTimeout` once when a deadline has really passed. Stopped (and released)
/// when the request ends.
final class Watchdog: Sendable {
    private struct State {
        var source: (any DispatchSourceTimer)?
        var fired: FerryError.TimeoutKind?
        var stopped = false
    }

    private let idle: Duration?
    private let deadline: ContinuousClock.Instant?
    private let sink: ResponseSink
    private let onTimeout: @Sendable () -> Void
    private let state = Mutex(State())

    init(
        idle: Duration?, deadline: ContinuousClock.Instant?, sink: ResponseSink,
        onTimeout: @escaping @Sendable () -> Void
    ) {
        self.idle = idle
        self.deadline = deadline
        self.sink = sink
        self.onTimeout = onTimeout
    }

    /// Which timeout fired, if one did.
    var firedKind: FerryError.TimeoutKind? { state.withLock { $0.fired } }

    /// Arms the timer.
    func start() {
        let wake = nextWake()
        state.withLock { state in
            guard !state.stopped else { return }
            // Made, armed and kept under the lock: Dispatch sources are not Sendable.
            let source = DispatchSource.makeTimerSource(queue: .global())
            source.setEventHandler { [self] in check() }
            source.schedule(deadline: Self.dispatchTime(wake), leeway: .milliseconds(1))
            source.resume()
            state.source = source
        }
    }

    /// Disarms and releases the timer.
    func stop() {
        state.withLock { state in
            state.stopped = true
            state.source?.cancel()
            state.source = nil
        }
    }

    private func check() {
        let now = ContinuousClock.now
        if let deadline, now >= deadline { return fire(.total) }
        if idle != nil {
            // A transport paused for a slow stream consumer is not an idle server.
            if sink.isWaitingForConsumer { sink.noteActivity() }
            if let idleDeadline = idleDeadline, now >= idleDeadline { return fire(.idle) }
        }
        let wake = nextWake()
        state.withLock { state in
            guard !state.stopped else { return }
            state.source?.schedule(deadline: Self.dispatchTime(wake), leeway: .milliseconds(1))
        }
    }

    private var idleDeadline: ContinuousClock.Instant? { idle.map { sink.lastActivity + $0 } }

    private func nextWake() -> ContinuousClock.Instant {
        switch (deadline, idleDeadline) {
        case (let total?, let idle?): min(total, idle)
        case (let total?, nil): total
        case (nil, let idle?): idle
        case (nil, nil): .now + .seconds(3600)
        }
    }

    private func fire(_ kind: FerryError.TimeoutKind) {
        let first = state.withLock { state in
            guard !state.stopped, state.fired == nil else { return false }
            state.fired = kind
            state.source?.cancel()
            state.source = nil
            return true
        }
        if first { onTimeout() }
    }

    private static func dispatchTime(_ instant: ContinuousClock.Instant) -> DispatchTime {
        let delay = ContinuousClock.now.duration(to: instant)
        guard delay > .zero else { return .now() }
        let (seconds, attoseconds) = delay.components
        return .now() + .nanoseconds(Int(clamping: seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000))
    }
}
