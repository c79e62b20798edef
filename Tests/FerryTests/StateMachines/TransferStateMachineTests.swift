@testable import Ferry
import Foundation
import Testing

/// The one state machine of every transfer kind, driven without a network: waiters are numbers, a head and a body are strings.
@Suite("Transfer state machine")
struct TransferStateMachineTests {
    private typealias Machine = Transfer.StateMachine<Int, String, String>

    private static let head = "200 OK"

    private static func outcome(_ reason: FerryError.Reason? = nil) -> TransferOutcome {
        let outcome = TransferOutcome.failure(FerryError(.cancelled), request: nil)
        outcome.error = reason.map { FerryError($0) }
        return outcome
    }

    // MARK: Data and download: the first awaiter sends and reads

    @Test func theFirstAwaiterSendsAndReadsAndLaterOnesWait() throws {
        var machine = Machine()
        guard case .open = machine.claim(.outcome) else { Issue.record("the first awaiter sends"); return }
        guard case .wait = machine.claim(.outcome) else { Issue.record("the second waits"); return }
        guard case .suspend = machine.wait(1, for: .outcome) else { Issue.record("it suspends"); return }
        guard case .suspend = machine.wait(2, for: .head) else { Issue.record("a head waiter too"); return }
        guard case .read(let headWaiters) = machine.opened(Self.head, body: "body", keepReading: true) else {
            Issue.record("the opener reads on")
            return
        }
        #expect(headWaiters == [2])
        guard case .head(let head) = machine.claim(.head) else { Issue.record("the head is there"); return }
        #expect(head == "200 OK")
        guard case .wait = machine.claim(.outcome) else { Issue.record("the body is being read"); return }
        #expect(machine.finish(Self.outcome()) == [1])
        #expect(machine.isFinished)
    }

    @Test func aHeadFirstAwaiterLeavesTheBodyToTheNextAwaiterOfTheOutcome() {
        var machine = Machine()
        guard case .open = machine.claim(.head) else { Issue.record("the head awaiter sends"); return }
        guard case .wait = machine.claim(.outcome) else { Issue.record("the value awaiter waits"); return }
        guard case .suspend = machine.wait(1, for: .outcome) else { Issue.record("it suspends"); return }
        guard case .resume(let waiters) = machine.opened(Self.head, body: "body", keepReading: false) else {
            Issue.record("the body waits for a reader")
            return
        }
        #expect(waiters == [1])
        guard case .read(let body) = machine.claim(.outcome) else { Issue.record("the value awaiter reads"); return }
        #expect(body == "body")
        guard case .wait = machine.claim(.outcome) else { Issue.record("only one reads"); return }
    }

    @Test func afterTheEndEveryAwaiterGetsTheOutcomeAtOnce() {
        var machine = Machine()
        _ = machine.claim(.outcome)
        _ = machine.finish(Self.outcome(.timedOut(.idle)))
        guard case .finished(let outcome) = machine.claim(.outcome) else { Issue.record("finished"); return }
        #expect(outcome.error?.reason == .timedOut(.idle))
        guard case .finished = machine.claim(.head) else { Issue.record("a head awaiter too"); return }
        guard case .retry = machine.wait(3, for: .outcome) else { Issue.record("no suspension after the end"); return }
    }

    @Test func onlyTheFirstOutcomeCounts() {
        var machine = Machine()
        _ = machine.claim(.outcome)
        _ = machine.finish(Self.outcome(.timedOut(.total)))
        #expect(machine.finish(Self.outcome(.cancelled)).isEmpty)
        guard case .finished(let outcome) = machine.claim(.outcome) else { Issue.record("finished"); return }
        #expect(outcome.error?.reason == .timedOut(.total))
    }

    @Test func waitingForTheEndNeverStartsOrReads() {
        var machine = Machine()
        guard case .wait = machine.claim(.end) else { Issue.record("an idle transfer is not started"); return }
        _ = machine.claim(.head)
        _ = machine.opened(Self.head, body: "body", keepReading: false)
        guard case .wait = machine.claim(.end) else { Issue.record("an open body is not read"); return }
        guard case .suspend = machine.wait(4, for: .end) else { Issue.record("it waits for the end"); return }
        #expect(machine.finish(Self.outcome()) == [4])
    }

    // MARK: Cancellation and abandonment

    @Test func cancellingBeforeTheStartFinishesWithoutRunning() {
        var machine = Machine()
        guard case .finished(let waiters, let cancelled) = machine.cancel(cancelledOutcome: Self.outcome(.cancelled))
        else {
            Issue.record("an unstarted transfer finishes at once")
            return
        }
        #expect(waiters.isEmpty)
        #expect(cancelled.error?.reason == .cancelled)
        guard case .finished(let outcome) = machine.claim(.outcome) else { Issue.record("it never runs"); return }
        #expect(outcome.error?.reason == .cancelled)
    }

    @Test func cancellingWhileSendingOrReadingStopsTheTaskAtWork() {
        var machine = Machine()
        _ = machine.claim(.outcome)
        guard case .stop = machine.cancel(cancelledOutcome: Self.outcome(.cancelled)) else {
            Issue.record("a sending transfer is stopped")
            return
        }
        _ = machine.opened(Self.head, body: "body", keepReading: true)
        guard case .stop = machine.cancel(cancelledOutcome: Self.outcome(.cancelled)) else {
            Issue.record("a reading transfer is stopped")
            return
        }
        #expect(machine.isRunning)
        _ = machine.finish(Self.outcome(.cancelled))
        guard case .none = machine.cancel(cancelledOutcome: Self.outcome(.cancelled)) else {
            Issue.record("cancelling a finished transfer does nothing")
            return
        }
    }

    @Test func cancellingABodyNobodyReadsDropsIt() {
        var machine = Machine()
        _ = machine.claim(.head)
        _ = machine.opened(Self.head, body: "body", keepReading: false)
        guard case .drop(let body) = machine.cancel(cancelledOutcome: Self.outcome(.cancelled)) else {
            Issue.record("the waiting body is dropped")
            return
        }
        #expect(body == "body")
        guard case .wait = machine.claim(.outcome) else { Issue.record("nobody reads a dropped body"); return }
    }

    @Test func anAbandonedTransferDropsItsUnreadBodyNowOrWhenItsHeadArrives() {
        var open = Machine()
        _ = open.claim(.head)
        _ = open.opened(Self.head, body: "body", keepReading: false)
        guard case .drop = open.abandon() else { Issue.record("an open body is dropped at once"); return }

        var opening = Machine()
        _ = opening.claim(.head)
        guard case .none = opening.abandon() else { Issue.record("nothing to drop yet"); return }
        guard case .drop = opening.opened(Self.head, body: "body", keepReading: false) else {
            Issue.record("dropped when the head arrives")
            return
        }

        var reading = Machine()
        _ = reading.claim(.outcome)
        guard case .none = reading.abandon() else { Issue.record("a started transfer runs on"); return }
        guard case .read = reading.opened(Self.head, body: "body", keepReading: true) else {
            Issue.record("its awaiter reads on")
            return
        }
    }

    // MARK: A stream's consumer

    @Test func aStreamsConsumerTakesAndReturnsTheBodyChunkByChunk() {
        var machine = Machine()
        let first = machine.claimConsumer()
        let second = machine.claimConsumer()
        #expect(first)
        #expect(!second, "one consumer")
        _ = machine.claim(.head)
        guard case .resume = machine.opened(Self.head, body: "body", keepReading: false) else {
            Issue.record("the body waits for its consumer")
            return
        }
        let taken = machine.takeBody()
        let again = machine.takeBody()
        let returned = machine.returnBody("body", stopped: false)
        guard case .read("body") = taken else { Issue.record("the consumer takes the body"); return }
        guard case .ended(nil) = again else { Issue.record("the body is out while a chunk is read"); return }
        #expect(returned)
        #expect(machine.waitingBody == "body")
        let next = machine.takeBody()
        let returnedAfterStop = machine.returnBody("body", stopped: true)
        guard case .read = next else { Issue.record("and again"); return }
        #expect(!returnedAfterStop, "a stop during the read ends the stream")
    }

    @Test func anOutcomeAwaiterNeverReadsAConsumedStreamsBody() {
        var machine = Machine()
        let claimed = machine.claimConsumer()
        #expect(claimed)
        guard case .open = machine.claim(.outcome) else { Issue.record("the awaiter sends"); return }
        guard case .resume = machine.opened(Self.head, body: "body", keepReading: true) else {
            Issue.record("the consumer, not the awaiter, reads")
            return
        }
        guard case .wait = machine.claim(.outcome) else { Issue.record("the awaiter waits for the end"); return }
        guard case .suspend = machine.wait(7, for: .outcome) else { Issue.record("it suspends"); return }
        let taken = machine.takeBody()
        let returned = machine.returnBody("body", stopped: false)
        guard case .read = taken else { Issue.record("the consumer reads"); return }
        #expect(returned)
        #expect(machine.finish(Self.outcome()) == [7])
        guard case .ended(nil) = machine.takeBody() else { Issue.record("a finished stream has no body"); return }
    }

    @Test func aStreamNobodyConsumesIsReadByItsOutcomeAwaiterAndCannotBeConsumedAfter() {
        var machine = Machine()
        _ = machine.claim(.outcome)
        guard case .read = machine.opened(Self.head, body: "body", keepReading: true) else {
            Issue.record("the awaiter reads and drops the body")
            return
        }
        let claimed = machine.claimConsumer()
        #expect(!claimed, "the body is taken")
    }

    @Test func cancellingAStreamBetweenTwoReadsDropsItsBody() {
        var machine = Machine()
        _ = machine.claimConsumer()
        _ = machine.claim(.head)
        _ = machine.opened(Self.head, body: "body", keepReading: false)
        _ = machine.takeBody()
        _ = machine.returnBody("body", stopped: false)
        guard case .drop = machine.cancel(cancelledOutcome: Self.outcome(.cancelled)) else {
            Issue.record("the body between reads is dropped")
            return
        }
    }

    @Test func aConsumerThatComesWhileTheBodyIsDroppedLearnsHowItEnded() {
        // A stream whose body waits for its consumer is cancelled; the consumer comes before the drop finished.
        var machine = Machine()
        _ = machine.claim(.head)
        _ = machine.opened(Self.head, body: "body", keepReading: false)
        guard case .drop = machine.cancel(cancelledOutcome: Self.outcome(.cancelled)) else {
            Issue.record("the waiting body is dropped")
            return
        }
        let claimed = machine.claimConsumer()
        #expect(claimed, "nobody else reads it: the consumer is the first, not a second")
        guard case .waitForEnd = machine.takeBody() else { Issue.record("it waits for the drop to end"); return }
        _ = machine.finish(Self.outcome(.cancelled))
        guard case .ended(let error) = machine.takeBody() else { Issue.record("then the end"); return }
        #expect(error?.reason == .cancelled, "not a clean end of the body")
    }

    @Test func aConsumerBetweenTwoReadsOfACancelledStreamIsToldItWasCancelled() {
        var machine = Machine()
        _ = machine.claimConsumer()
        _ = machine.claim(.head)
        _ = machine.opened(Self.head, body: "body", keepReading: false)
        _ = machine.cancel(cancelledOutcome: Self.outcome(.cancelled))
        guard case .waitForEnd = machine.takeBody() else {
            Issue.record("no clean end while the body is dropped")
            return
        }
    }
}
