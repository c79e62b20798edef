import Dispatch
import Synchronization

/// Sleeps until a deadline on a Dispatch timer that is cancelled, and released, the moment the sleeping task is.
///
/// `Task.sleep(until:)` leaves its timer armed until the deadline even when the task is cancelled early, holding the
/// task and a few allocations meanwhile: with a 60 s idle timeout and thousands of requests a second, that is hundreds
/// of megabytes of timers for requests long finished. Every request's watchdog sleeps, and almost all of them are
/// cancelled because the request ended first, so the watchdog uses this instead.
enum DeadlineSleep {
    /// Returns at `deadline`, or throws `CancellationError` as soon as the task is cancelled.
    static func sleep(until deadline: ContinuousClock.Instant) async throws {
        let delay = ContinuousClock.now.duration(to: deadline)
        guard delay > .zero else { return }
        let timer = SleepTimer()
        await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                timer.start(after: delay, continuation: continuation)
            }
        } onCancel: {
            timer.stop()
        }
        try Task.checkCancellation()
    }
}

/// One sleep's timer and continuation: whichever of firing and cancelling comes first resumes the continuation and
/// cancels the timer; the other does nothing.
private final class SleepTimer: Sendable {
    private struct State {
        var source: (any DispatchSourceTimer)?
        var continuation: UnsafeContinuation<Void, Never>?
        var stopped = false
    }

    private let state = Mutex(State())

    func start(after delay: Duration, continuation: UnsafeContinuation<Void, Never>) {
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(clamping: seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
        // Made, armed and stored under the lock: the timer never leaves it (Dispatch sources are not Sendable).
        let started = state.withLock { state in
            guard !state.stopped else { return false }
            let source = DispatchSource.makeTimerSource(queue: .global())
            source.schedule(deadline: .now() + .nanoseconds(nanoseconds), leeway: .milliseconds(1))
            source.setEventHandler { [self] in stop() }
            source.resume()
            state.source = source
            state.continuation = continuation
            return true
        }
        if !started { continuation.resume() }
    }

    func stop() {
        let continuation: UnsafeContinuation<Void, Never>? = state.withLock { state in
            state.source?.cancel()
            defer {
                state.stopped = true
                state.source = nil
                state.continuation = nil
            }
            return state.continuation
        }
        continuation?.resume()
    }
}
