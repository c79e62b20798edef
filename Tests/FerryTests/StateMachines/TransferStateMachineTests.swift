@testable import Ferry
import Foundation
import Testing

@Suite("Transfer state machine")
struct TransferStateMachineTests {
    private typealias Machine = Transfer.StateMachine<Int>

    private static func outcome(_ reason: FerryError.Reason? = nil) -> TransferOutcome {
        var outcome = TransferOutcome.failure(FerryError(.cancelled), request: nil)
        outcome.error = reason.map { FerryError($0) }
        return outcome
    }

    @Test func theFirstAwaiterRunsAndLaterOnesWait() {
        var machine = Machine()
        guard case .run = machine.claim() else { Issue.record("the first awaiter runs"); return }
        guard case .wait = machine.claim() else { Issue.record("the second waits"); return }
        guard case .suspend = machine.wait(1) else { Issue.record("a waiter suspends while running"); return }
        guard case .suspend = machine.wait(2) else { Issue.record("so does another"); return }
        #expect(machine.finish(Self.outcome()) == [1, 2])
        #expect(machine.isFinished)
    }

    @Test func afterTheEndEveryAwaiterGetsTheOutcomeAtOnce() {
        var machine = Machine()
        _ = machine.claim()
        _ = machine.finish(Self.outcome(.timedOut(.idle)))
        guard case .finished(let outcome) = machine.claim() else { Issue.record("finished"); return }
        #expect(outcome.error?.reason == .timedOut(.idle))
        guard case .resume(let again) = machine.wait(3) else { Issue.record("no suspension after the end"); return }
        #expect(again.error?.reason == .timedOut(.idle))
    }

    @Test func onlyTheFirstOutcomeCounts() {
        var machine = Machine()
        _ = machine.claim()
        _ = machine.finish(Self.outcome(.timedOut(.total)))
        #expect(machine.finish(Self.outcome(.cancelled)).isEmpty)
        guard case .finished(let outcome) = machine.claim() else { Issue.record("finished"); return }
        #expect(outcome.error?.reason == .timedOut(.total))
    }

    @Test func cancellingBeforeTheStartFinishesWithoutRunning() {
        var machine = Machine()
        guard case .finished(let waiters, let cancelled) = machine.cancel(cancelledOutcome: Self.outcome(.cancelled))
        else {
            Issue.record("an unstarted transfer finishes at once")
            return
        }
        #expect(waiters.isEmpty)
        #expect(cancelled.error?.reason == .cancelled)
        guard case .finished(let outcome) = machine.claim() else { Issue.record("it never runs"); return }
        #expect(outcome.error?.reason == .cancelled)
    }

    @Test func cancellingARunningTransferStopsIt() {
        var machine = Machine()
        _ = machine.claim()
        guard case .stop = machine.cancel(cancelledOutcome: Self.outcome(.cancelled)) else {
            Issue.record("a running transfer is stopped")
            return
        }
        #expect(machine.isRunning)
        _ = machine.finish(Self.outcome(.cancelled))
        guard case .none = machine.cancel(cancelledOutcome: Self.outcome(.cancelled)) else {
            Issue.record("cancelling a finished transfer does nothing")
            return
        }
    }
}
