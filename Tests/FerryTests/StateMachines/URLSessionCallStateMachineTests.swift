@testable import Ferry
import Testing

@Suite("URLSession call state machine")
struct URLSessionCallStateMachineTests {
    private typealias Machine = URLSessionCall.StateMachine<String, Int>

    @Test func aHeadResumesTheContinuationOnce() {
        var machine = Machine()
        guard case .resume = machine.start("task", continuation: 1) else { Issue.record("starts"); return }
        #expect(machine.receiveHead() == 1)
        #expect(machine.receiveHead() == nil)
        guard case .endBody = machine.complete() else { Issue.record("the body ends at completion"); return }
        guard case .none = machine.complete() else { Issue.record("completion counts once"); return }
    }

    @Test func aStopBeforeTheTaskExistsFailsItsStart() {
        var machine = Machine()
        guard case .none = machine.stop(FerryError(.cancelled)) else { Issue.record("nothing to cancel yet"); return }
        guard case .fail(let continuation, let error) = machine.start("task", continuation: 7) else {
            Issue.record("the start fails")
            return
        }
        #expect(continuation == 7)
        #expect(error.reason == .cancelled)
    }

    @Test func aStopWhileWaitingForTheHeadFailsItAndCancelsTheTaskOnce() {
        var machine = Machine()
        _ = machine.start("task", continuation: 1)
        guard case .failHead(let continuation, let task) = machine.stop(FerryError(.timedOut(.idle))) else {
            Issue.record("the head wait fails")
            return
        }
        #expect(continuation == 1 && task == "task")
        guard case .none = machine.stop(FerryError(.cancelled)) else { Issue.record("cancelled once"); return }
        guard case .none = machine.complete() else { Issue.record("a late completion is dropped"); return }
        #expect(machine.receiveHead() == nil)
    }

    @Test func aStopWhileStreamingEndsTheBody() {
        var machine = Machine()
        _ = machine.start("task", continuation: 1)
        _ = machine.receiveHead()
        guard case .failBody(let task) = machine.stop(FerryError(.cancelled)) else {
            Issue.record("the body fails")
            return
        }
        #expect(task == "task")
        guard case .none = machine.complete() else { Issue.record("never cancelled after completion"); return }
    }

    @Test func aCompletionWithoutAHeadHandsTheContinuationBack() {
        var machine = Machine()
        _ = machine.start("task", continuation: 3)
        guard case .completeWithoutHead(let continuation) = machine.complete() else {
            Issue.record("the caller looks for a head on the task")
            return
        }
        #expect(continuation == 3)
        guard case .none = machine.stop(FerryError(.cancelled)) else { Issue.record("nothing left to stop"); return }
    }
}
