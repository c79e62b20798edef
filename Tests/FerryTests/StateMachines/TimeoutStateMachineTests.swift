@testable import Ferry
import Testing

/// The timeout state machine alone: time is passed in, nothing sleeps.
@Suite("Timeout state machine")
struct TimeoutStateMachineTests {
    /// The instant every test's time counts from.
    let start = ContinuousClock.now

    /// `start` plus `seconds`.
    /// - Parameter seconds: Seconds after `start`.
    /// - Returns: The instant.
    func at(_ seconds: Int) -> ContinuousClock.Instant {
        start + .seconds(seconds)
    }

    /// A request whose last activity was at `instant`.
    /// - Parameter instant: The activity's instant.
    /// - Returns: The request's controls.
    func stamped(_ instant: ContinuousClock.Instant) -> TransferControls {
        let request = TransferControls()
        request.activity.note(instant)
        return request
    }

    /// The expired entries of `fired`, as comparable pairs.
    /// - Parameter fired: A timer wake's result.
    /// - Returns: The ids and kinds.
    func expired(_ fired: TimeoutScheduler.StateMachine.Fired) -> [Expiry] {
        fired.expired.map { Expiry(id: $0.id, kind: $0.kind) }
    }

    /// An expired entry, comparable.
    struct Expiry: Equatable {
        /// The entry's id.
        var id: UInt64
        /// The timeout that ran out.
        var kind: FerryError.TimeoutKind
    }

    /// Without activity the idle timeout runs out exactly at registration plus idle.
    @Test func idleExpiresWhenNothingMovesForTheIdleTimeout() {
        var machine = TimeoutScheduler.StateMachine()
        let action = machine.register(1, idle: .seconds(60), deadline: nil, request: stamped(start), now: start)
        #expect(action == .schedule(at: at(60)))

        let early = machine.timerFired(now: at(59))
        #expect(early.expired.isEmpty)
        #expect(early.next == at(60))

        let due = machine.timerFired(now: at(60))
        #expect(expired(due) == [Expiry(id: 1, kind: .idle)])
        #expect(due.next == nil)
        #expect(machine.isEmpty)
    }

    /// The total timeout runs out at its deadline.
    @Test func totalExpiresAtTheDeadline() {
        var machine = TimeoutScheduler.StateMachine()
        let action = machine.register(1, idle: nil, deadline: at(30), request: stamped(start), now: start)
        #expect(action == .schedule(at: at(30)))

        #expect(machine.timerFired(now: at(29)).next == at(30))
        let due = machine.timerFired(now: at(30))
        #expect(expired(due) == [Expiry(id: 1, kind: .total)])
    }

    /// When both timeouts passed, the total one is reported.
    @Test func totalWinsWhenBothPassed() {
        var machine = TimeoutScheduler.StateMachine()
        _ = machine.register(1, idle: .seconds(10), deadline: at(10), request: stamped(start), now: start)
        _ = machine.register(2, idle: .seconds(10), deadline: at(20), request: stamped(start), now: start)

        let due = machine.timerFired(now: at(25))
        #expect(expired(due) == [Expiry(id: 1, kind: .total), Expiry(id: 2, kind: .total)])
    }

    /// The idle timeout is reported when only it passed.
    @Test func idleWinsWhileTheDeadlineIsAhead() {
        var machine = TimeoutScheduler.StateMachine()
        _ = machine.register(1, idle: .seconds(10), deadline: at(60), request: stamped(start), now: start)

        let due = machine.timerFired(now: at(10))
        #expect(expired(due) == [Expiry(id: 1, kind: .idle)])
    }

    /// Activity moves the idle expiry later; the wake finds nothing due and plans the new expiry.
    @Test func activityPushesTheIdleExpiryLater() {
        var machine = TimeoutScheduler.StateMachine()
        let request = stamped(start)
        _ = machine.register(1, idle: .seconds(60), deadline: nil, request: request, now: start)

        request.activity.note(at(40))
        let planned = machine.timerFired(now: at(60))
        #expect(planned.expired.isEmpty)
        #expect(planned.next == at(100))

        let due = machine.timerFired(now: at(100))
        #expect(expired(due) == [Expiry(id: 1, kind: .idle)])
    }

    /// A paused stamp is looked at again later but never runs out idle; resumed, it does.
    @Test func pausedStampNeverExpiresIdleAndExpiresAfterResuming() {
        var machine = TimeoutScheduler.StateMachine()
        let request = stamped(start)
        _ = machine.register(1, idle: .seconds(60), deadline: nil, request: request, now: start)

        request.activity.pause()
        let recheck = machine.timerFired(now: at(60))
        #expect(recheck.expired.isEmpty)
        #expect(recheck.next == at(120))
        #expect(machine.timerFired(now: at(1_000)).expired.isEmpty)

        request.activity.note(at(1_000))
        #expect(machine.timerFired(now: at(1_059)).next == at(1_060))
        let due = machine.timerFired(now: at(1_060))
        #expect(expired(due) == [Expiry(id: 1, kind: .idle)])
    }

    /// Pausing does not stop the total timeout.
    @Test func pausedStampStillExpiresTotal() {
        var machine = TimeoutScheduler.StateMachine()
        let request = stamped(start)
        _ = machine.register(1, idle: .seconds(60), deadline: at(90), request: request, now: start)

        request.activity.pause()
        #expect(machine.timerFired(now: at(60)).next == at(90))
        #expect(expired(machine.timerFired(now: at(90))) == [Expiry(id: 1, kind: .total)])
    }

    /// A removed entry is gone at once and the planned wake stays.
    @Test func removedEntryNeverExpires() {
        var machine = TimeoutScheduler.StateMachine()
        _ = machine.register(1, idle: .seconds(10), deadline: nil, request: stamped(start), now: start)
        _ = machine.register(2, idle: .seconds(20), deadline: nil, request: stamped(start), now: start)

        machine.remove(1)
        machine.remove(42)
        #expect(machine.count == 1)
        #expect(machine.plannedWake == at(10))

        let due = machine.timerFired(now: at(30))
        #expect(expired(due) == [Expiry(id: 2, kind: .idle)])
    }

    /// Only an entry that may run out before the planned wake reschedules.
    @Test func laterEntryKeepsThePlannedWakeAndEarlierOneReschedules() {
        var machine = TimeoutScheduler.StateMachine()
        let first = machine.register(1, idle: .seconds(60), deadline: nil, request: stamped(start), now: start)
        let later = machine.register(2, idle: .seconds(90), deadline: nil, request: stamped(start), now: start)
        let same = machine.register(3, idle: .seconds(50), deadline: nil, request: stamped(at(10)), now: at(10))
        let earlier = machine.register(
            4, idle: .seconds(60), deadline: at(30), request: stamped(start), now: start)

        #expect(first == .schedule(at: at(60)))
        #expect(later == TimeoutScheduler.StateMachine.TimerAction.none)
        #expect(same == TimeoutScheduler.StateMachine.TimerAction.none)
        #expect(earlier == .schedule(at: at(30)))
        #expect(machine.plannedWake == at(30))
    }

    /// Short requests in a row never reschedule and leave nothing behind.
    @Test func sequentialRequestsShareTheFirstPlannedWake() {
        var machine = TimeoutScheduler.StateMachine()
        let first = machine.register(0, idle: .seconds(60), deadline: nil, request: stamped(start), now: start)
        #expect(first == .schedule(at: at(60)))
        machine.remove(0)
        for id in UInt64(1)...100 {
            let now = start + .milliseconds(Int(id) * 10)
            let action = machine.register(id, idle: .seconds(60), deadline: nil, request: stamped(now), now: now)
            #expect(action == TimeoutScheduler.StateMachine.TimerAction.none)
            machine.remove(id)
        }
        #expect(machine.isEmpty)
        #expect(machine.plannedWake == at(60))
    }

    /// A wake removes what ran out and plans the earliest remaining expiry.
    @Test func firingPlansTheEarliestRemainingExpiry() {
        var machine = TimeoutScheduler.StateMachine()
        _ = machine.register(1, idle: .seconds(10), deadline: nil, request: stamped(start), now: start)
        _ = machine.register(2, idle: .seconds(30), deadline: nil, request: stamped(start), now: start)
        _ = machine.register(3, idle: nil, deadline: at(50), request: stamped(start), now: start)

        let first = machine.timerFired(now: at(10))
        #expect(expired(first) == [Expiry(id: 1, kind: .idle)])
        #expect(first.next == at(30))
        #expect(machine.plannedWake == at(30))

        let second = machine.timerFired(now: at(30))
        #expect(expired(second) == [Expiry(id: 2, kind: .idle)])
        #expect(second.next == at(50))
    }

    /// A wake with nothing left stops the timer; the next registration schedules anew.
    @Test func emptyMachineStopsTheTimerAndSchedulesAnew() {
        var machine = TimeoutScheduler.StateMachine()
        _ = machine.register(1, idle: .seconds(10), deadline: nil, request: stamped(start), now: start)
        machine.remove(1)

        let fired = machine.timerFired(now: at(10))
        #expect(fired.expired.isEmpty)
        #expect(fired.next == nil)
        #expect(machine.plannedWake == nil)

        let action = machine.register(
            2, idle: .seconds(60), deadline: nil, request: stamped(at(20)), now: at(20))
        #expect(action == .schedule(at: at(80)))
    }

    /// An entry with neither timeout never schedules or runs out.
    @Test func entryWithoutTimeoutsNeverSchedulesOrExpires() {
        var machine = TimeoutScheduler.StateMachine()
        let action = machine.register(1, idle: nil, deadline: nil, request: stamped(start), now: start)
        #expect(action == TimeoutScheduler.StateMachine.TimerAction.none)

        let fired = machine.timerFired(now: at(1_000_000))
        #expect(fired.expired.isEmpty)
        #expect(fired.next == nil)
        #expect(machine.count == 1)
    }

    /// A stamp keeps the exact instant it was given, and none while paused (as it is before registration).
    @Test func activityStampKeepsTheLastActivity() {
        #expect(TransferControls().activity.lastActivity == nil)
        let request = stamped(start)
        #expect(request.activity.lastActivity == start)

        request.activity.note(start + .nanoseconds(1_500))
        #expect(request.activity.lastActivity == start + .nanoseconds(1_500))
        request.activity.pause()
        #expect(request.activity.lastActivity == nil)
        request.activity.note(at(-5))
        #expect(request.activity.lastActivity == at(-5))
    }
}
