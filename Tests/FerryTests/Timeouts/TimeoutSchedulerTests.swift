@testable import Ferry
import Testing

/// The session's one timer on a manual clock: time moves only when a test advances it, and tests wait on the
/// clock's sleepers and on reported timeouts, never on the wall clock.
@Suite("Timeout scheduler", .timeLimit(.minutes(1)))
struct TimeoutSchedulerTests {
    /// The clock the scheduler sleeps on.
    let clock = ManualTimeoutClock()
    /// The scheduler under test.
    let scheduler: TimeoutScheduler
    /// The instant every test's time counts from.
    let start: ContinuousClock.Instant

    /// Creates a scheduler on a stopped clock.
    init() {
        scheduler = TimeoutScheduler(clock: clock)
        start = clock.now
    }

    /// Registers an idle and total timeout for a new request whose stops go to a new recorder.
    /// - Parameters:
    ///   - idle: The idle timeout, or `nil`.
    ///   - total: The total timeout from now, or `nil`.
    /// - Returns: The registration and its recorder.
    func register(idle: Duration?, total: Duration? = nil) throws -> (TimeoutScheduler.Registration, TimeoutRecorder) {
        let recorder = TimeoutRecorder()
        let registration = try #require(
            scheduler.register(
                idle: idle, deadline: total.map { Moment(clock.now + $0) }, stopping: recorder.request()))
        return (registration, recorder)
    }

    /// Without a timeout nothing is registered.
    @Test func noTimeoutRegistersNothing() {
        #expect(scheduler.register(idle: nil, deadline: nil, stopping: TransferControls()) == nil)
        #expect(scheduler.count == 0)
        #expect(scheduler.timersStarted == 0)
    }

    /// The idle timeout fires once the clock passes it, and not before.
    @Test func firesIdleAfterItPassesAndNotBefore() async throws {
        let (_, recorder) = try register(idle: .seconds(60))
        #expect(await clock.waitForSleepers() == [start + .seconds(60)])

        clock.advance(by: .seconds(59))
        #expect(recorder.kinds.isEmpty)

        clock.advance(by: .seconds(1))
        #expect(await recorder.waitForTimeouts(count: 1) == [.idle])
        #expect(scheduler.count == 0)
    }

    /// The total timeout fires at its deadline.
    @Test func firesTotalAtTheDeadline() async throws {
        let (_, recorder) = try register(idle: .seconds(60), total: .seconds(30))
        #expect(await clock.waitForSleepers() == [start + .seconds(30)])

        clock.advance(by: .seconds(30))
        #expect(await recorder.waitForTimeouts(count: 1) == [.total])
    }

    /// Activity moves the idle timeout later; the timer wakes, finds nothing due and sleeps again.
    @Test func activityDelaysTheIdleTimeout() async throws {
        let (registration, recorder) = try register(idle: .seconds(60))
        await clock.waitForSleepers()

        clock.advance(by: .seconds(30))
        registration.noteActivity()
        clock.advance(by: .seconds(31))
        #expect(await clock.waitForSleepers() == [start + .seconds(90)])
        #expect(recorder.kinds.isEmpty)

        // One second before the new idle deadline (activity at 30 s + 60 s) no sleeper is due, so nothing can fire;
        // at the deadline itself the timer wakes and fires. (Checking "not yet" at 90 s raced with that wake.)
        clock.advance(by: .seconds(28))
        #expect(recorder.kinds.isEmpty)
        clock.advance(by: .seconds(1))
        #expect(await recorder.waitForTimeouts(count: 1) == [.idle])
    }

    /// A paused registration does not time out idle; once resumed it does, an idle timeout after the activity.
    @Test func pausedRegistrationWaitsForTheConsumer() async throws {
        let (registration, recorder) = try register(idle: .seconds(60))
        await clock.waitForSleepers()

        registration.pause()
        clock.advance(by: .seconds(60))
        #expect(await clock.waitForSleepers() == [start + .seconds(120)])
        #expect(recorder.kinds.isEmpty)

        clock.advance(by: .seconds(30))
        registration.noteActivity()
        clock.advance(by: .seconds(30))
        #expect(await clock.waitForSleepers() == [start + .seconds(150)])
        #expect(recorder.kinds.isEmpty)

        clock.advance(by: .seconds(30))
        #expect(await recorder.waitForTimeouts(count: 1) == [.idle])
    }

    /// A cancelled registration never fires; the timer still serves the others.
    @Test func cancelPreventsFiring() async throws {
        let (cancelled, cancelledRecorder) = try register(idle: .seconds(60))
        let (_, otherRecorder) = try register(idle: .seconds(100))
        await clock.waitForSleepers()

        cancelled.cancel()
        #expect(scheduler.count == 1)
        clock.advance(by: .seconds(60))
        #expect(await clock.waitForSleepers() == [start + .seconds(100)])
        #expect(cancelledRecorder.kinds.isEmpty)

        clock.advance(by: .seconds(40))
        #expect(await otherRecorder.waitForTimeouts(count: 1) == [.idle])
        #expect(cancelledRecorder.kinds.isEmpty)
    }

    /// A second registration that runs out later shares the first one's sleeper.
    @Test func twoRegistrationsShareOneSleeper() async throws {
        let (_, first) = try register(idle: .seconds(60))
        let (_, second) = try register(idle: .seconds(90))
        #expect(scheduler.timersStarted == 1)
        #expect(await clock.waitForSleepers() == [start + .seconds(60)])

        clock.advance(by: .seconds(60))
        #expect(await first.waitForTimeouts(count: 1) == [.idle])
        #expect(await clock.waitForSleepers() == [start + .seconds(90)])
        #expect(second.kinds.isEmpty)

        clock.advance(by: .seconds(30))
        #expect(await second.waitForTimeouts(count: 1) == [.idle])
        #expect(scheduler.timersStarted == 1)
    }

    /// A registration that runs out before the planned wake replaces the sleeper.
    @Test func earlierRegistrationReplacesTheSleeper() async throws {
        _ = try register(idle: .seconds(60))
        await clock.waitForSleepers()
        let (_, recorder) = try register(idle: nil, total: .seconds(10))

        #expect(scheduler.timersStarted == 2)
        #expect(await clock.waitForSleepers() == [start + .seconds(10)])
        clock.advance(by: .seconds(10))
        #expect(await recorder.waitForTimeouts(count: 1) == [.total])
        #expect(await clock.waitForSleepers() == [start + .seconds(60)])
    }

    /// Many short requests in a row start one sleeper and leave nothing behind.
    @Test func sequentialRequestsDoNotGrowState() async throws {
        for _ in 0..<1_000 {
            let (registration, _) = try register(idle: .seconds(60))
            registration.noteActivity()
            registration.cancel()
            clock.advance(by: .milliseconds(10))
        }
        #expect(scheduler.count == 0)
        #expect(scheduler.timersStarted == 1)
        #expect(await clock.waitForSleepers() == [start + .seconds(60)])

        clock.advance(by: .seconds(60))
        let (_, recorder) = try register(idle: .seconds(60))
        #expect(await clock.waitForSleepers() == [start + .seconds(130)])
        clock.advance(by: .seconds(60))
        #expect(await recorder.waitForTimeouts(count: 1) == [.idle])
    }

    /// A registration reports at most once, and cancelling it afterwards does nothing.
    @Test func firesAtMostOnce() async throws {
        let (registration, recorder) = try register(idle: .seconds(10), total: .seconds(10))
        let (_, later) = try register(idle: .seconds(100))
        await clock.waitForSleepers()

        clock.advance(by: .seconds(50))
        #expect(await recorder.waitForTimeouts(count: 1) == [.total])
        #expect(await clock.waitForSleepers() == [start + .seconds(100)])
        registration.cancel()
        clock.advance(by: .seconds(50))
        #expect(await later.waitForTimeouts(count: 1) == [.idle])
        #expect(recorder.kinds == [.total])
    }

    /// Shutdown stops the sleeper and forgets registrations; a later registration starts a new sleeper.
    @Test func shutdownStopsTheSleeperAndLaterRegistrationsStillFire() async throws {
        let (_, forgotten) = try register(idle: .seconds(60))
        await clock.waitForSleepers()

        scheduler.shutdown()
        #expect(clock.sleeperDeadlines.isEmpty)
        #expect(scheduler.count == 0)
        clock.advance(by: .seconds(60))
        #expect(forgotten.kinds.isEmpty)

        let (_, recorder) = try register(idle: .seconds(5))
        #expect(await clock.waitForSleepers() == [start + .seconds(65)])
        clock.advance(by: .seconds(5))
        #expect(await recorder.waitForTimeouts(count: 1) == [.idle])
        #expect(forgotten.kinds.isEmpty)
    }

    /// Releasing the scheduler cancels its sleeper: the sleeper does not keep the scheduler alive.
    @Test func releasingTheSchedulerStopsItsSleeper() async throws {
        let clock = ManualTimeoutClock()
        var scheduler: TimeoutScheduler? = TimeoutScheduler(clock: clock)
        let registration = try #require(
            scheduler?.register(idle: .seconds(60), deadline: nil, stopping: TransferControls()))
        await clock.waitForSleepers()

        weak let released = scheduler
        scheduler = nil
        #expect(released == nil)
        #expect(clock.sleeperDeadlines.isEmpty)
        registration.cancel()
    }

    /// On the system clock the timer really sleeps and fires.
    @Test func systemClockFires() async throws {
        let scheduler = TimeoutScheduler()
        let recorder = TimeoutRecorder()
        _ = try #require(
            scheduler.register(idle: .milliseconds(20), deadline: nil, stopping: recorder.request()))
        #expect(await recorder.waitForTimeouts(count: 1) == [.idle])
    }
}

/// Records the timeouts that stopped one registration's request and lets a test wait for them.
final class TimeoutRecorder: Sendable {
    /// The recorder's state.
    private struct State {
        /// The timeouts reported so far.
        var kinds: [FerryError.TimeoutKind] = []
        /// Tests waiting for a number of reports.
        var waiters: [(count: Int, continuation: CheckedContinuation<[FerryError.TimeoutKind], Never>)] = []
    }

    /// The state.
    private let state = Locked(State())

    /// The timeouts reported so far.
    var kinds: [FerryError.TimeoutKind] { state.withLock { $0.kinds } }

    /// A request whose stops this recorder records; its signal's handler stays installed.
    /// - Returns: The request's controls.
    func request() -> TransferControls {
        let controls = TransferControls()
        controls.signal.install { [self] error in
            guard case .timedOut(let kind) = error.reason else { return }
            record(kind)
        }
        return controls
    }

    /// Records a report.
    /// - Parameter kind: The timeout that ran out.
    func record(_ kind: FerryError.TimeoutKind) {
        let (ready, kinds) = state.withLock { state in
            state.kinds.append(kind)
            let ready = state.waiters.filter { $0.count <= state.kinds.count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= state.kinds.count }
            return (ready, state.kinds)
        }
        for continuation in ready {
            continuation.resume(returning: kinds)
        }
    }

    /// Waits until at least `count` timeouts were reported.
    /// - Parameter count: How many reports to wait for.
    /// - Returns: The reports.
    func waitForTimeouts(count: Int) async -> [FerryError.TimeoutKind] {
        await withCheckedContinuation { continuation in
            let kinds = state.withLock { state -> [FerryError.TimeoutKind]? in
                guard state.kinds.count < count else { return state.kinds }
                state.waiters.append((count, continuation))
                return nil
            }
            if let kinds { continuation.resume(returning: kinds) }
        }
    }
}
