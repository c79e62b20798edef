#if AsyncHTTPClient
@testable import Ferry
import Foundation
import Testing

@Suite("AsyncHTTPClient exchange state machine")
struct AsyncHTTPClientExchangeStateMachineTests {
    /// Head continuation, consumer, promise and task stand-ins.
    private typealias Machine = AsyncHTTPClientExchange.StateMachine<String, Int, String, String>

    private static let head = HTTPResponse(statusCode: 200, url: URL(string: "http://stub.test/")!)

    private static func chunk(_ count: Int) -> Data { Data(repeating: 1, count: count) }

    @Test func aSmallResponseWakesThePipelineOnce() {
        var machine = Machine()
        let startError = machine.start("head")
        let stoppedMeanwhile = machine.attach("task")
        #expect(startError == nil)
        #expect(stoppedMeanwhile == false)
        // One event-loop tick: head, body, end.
        let headFlush = machine.receiveHead(Self.head)
        #expect(headFlush, "the head asks for a flush")
        guard case .proceed(let flush) = machine.receive(Self.chunk(10), makePromise: { "never" }) else {
            Issue.record("a small body proceeds")
            return
        }
        #expect(flush == false, "no consumer waits yet: nothing more to wake")
        guard case .flush(let scheduling, nil) = machine.end(nil, onEventLoop: true) else {
            Issue.record("the end rides on the flush already scheduled")
            return
        }
        #expect(scheduling == false, "one flush for the whole tick")
        let (head, consumer) = machine.flush()
        #expect(head?.0 == "head")
        #expect(consumer == nil)
        // The pipeline now reads without waiting.
        guard case .chunk(let data, nil) = machine.next() else { Issue.record("the chunk is there"); return }
        #expect(data.count == 10)
        guard case .end = machine.next() else { Issue.record("then the end"); return }
    }

    @Test func pastTheHighWatermarkTheEngineWaitsUntilTheConsumerDrains() {
        var machine = Machine()
        _ = machine.start("head")
        _ = machine.receiveHead(Self.head)
        _ = machine.flush()
        let half = Machine.highWatermark / 2
        guard case .proceed = machine.receive(Self.chunk(half), makePromise: { "unused" }) else {
            Issue.record("below the watermark")
            return
        }
        guard case .pause(let promise, _) = machine.receive(Self.chunk(half), makePromise: { "promise" }) else {
            Issue.record("at the watermark the engine waits")
            return
        }
        #expect(promise == "promise")
        guard case .chunk(_, nil) = machine.next() else { Issue.record("still above the low watermark"); return }
        guard case .chunk(_, let released) = machine.next() else { Issue.record("drained"); return }
        #expect(released == "promise", "below the low watermark the engine reads on")
    }

    @Test func aWaitingConsumerIsWokenByTheNextPart() {
        var machine = Machine()
        _ = machine.start("head")
        _ = machine.receiveHead(Self.head)
        _ = machine.flush()
        guard case .wait = machine.next() else { Issue.record("nothing yet"); return }
        let waits = machine.wait(7)
        #expect(waits)
        guard case .proceed(let flush) = machine.receive(Self.chunk(3), makePromise: { "unused" }) else {
            Issue.record("proceeds")
            return
        }
        #expect(flush)
        let (_, woken) = machine.flush()
        #expect(woken == 7)
    }

    @Test func aStopBeforeTheHeadFailsItAndForgetsTheTask() {
        var machine = Machine()
        _ = machine.start("head")
        _ = machine.attach("task")
        guard
            case .failHead(let continuation, let error) = machine.end(FerryError(.timedOut(.idle)), onEventLoop: false)
        else {
            Issue.record("the head wait fails")
            return
        }
        #expect(continuation == "head")
        #expect(error.reason == .timedOut(.idle))
        #expect(machine.task == nil, "the engine's task (which holds the delegate) is released")
        guard case .none = machine.end(nil, onEventLoop: true) else { Issue.record("the first end wins"); return }
    }

    @Test func aStopFromOutsideWakesEverythingAtOnceAndDropsTheBuffer() {
        var machine = Machine()
        _ = machine.start("head")
        _ = machine.receiveHead(Self.head)
        _ = machine.receive(Self.chunk(5), makePromise: { "unused" })
        guard case .resume(let head, nil, nil) = machine.end(FerryError(.cancelled), onEventLoop: false) else {
            Issue.record("a stop resumes at once")
            return
        }
        #expect(head?.0 == "head", "a head not yet handed on is handed on")
        guard case .fail(let error) = machine.next() else { Issue.record("the buffer is dropped"); return }
        #expect(error.reason == .cancelled)
    }

    @Test func anEngineFailureComesAfterTheBytesThatArrived() {
        var machine = Machine()
        _ = machine.start("head")
        _ = machine.receiveHead(Self.head)
        _ = machine.flush()
        _ = machine.receive(Self.chunk(4), makePromise: { "unused" })
        _ = machine.end(FerryError(.transport(.connectionLost)), onEventLoop: true)
        guard case .chunk(let data, _) = machine.next() else {
            Issue.record("the bytes that arrived are read first")
            return
        }
        #expect(data.count == 4)
        guard case .fail(let error) = machine.next() else { Issue.record("then the failure"); return }
        #expect(error.reason == .transport(.connectionLost))
    }

    @Test func aStopBeforeTheStartFailsTheStartAndTheTaskIsCancelled() {
        var machine = Machine()
        guard case .none = machine.end(FerryError(.cancelled), onEventLoop: false) else {
            Issue.record("nothing to resume")
            return
        }
        let startError = machine.start("head")
        let stoppedMeanwhile = machine.attach("task")
        #expect(startError?.reason == .cancelled)
        #expect(stoppedMeanwhile, "the caller cancels the engine's task")
    }
}
#endif
