import Testing

@testable import Ferry

/// The inbox's rules with numbers for the waiting parties: no tasks, no sockets.
@Suite("WebSocket inbox state machine")
struct WebSocketInboxStateMachineTests {
    typealias Machine = WebSocketInboxStateMachine<Int, Int, Int, Int>

    @Test func theReaderReadsOnlyWhenTheConsumerAsks() throws {
        var machine = Machine()
        // Given a reader alone: it parks, nothing is read without demand
        #expect(machine.readerWaits(1).reader == nil)
        // When the consumer asks, the reader is woken with "read"
        let woken = machine.consumerWaits(10)
        #expect(woken.reader?.0 == 1)
        #expect(woken.reader?.1 == true)
        // Then the message goes to that consumer, and only once
        let delivered = machine.deliver(.text("a"))
        #expect(delivered.consumer?.0 == 10)
        #expect(try delivered.consumer?.1.get() == .text("a"))
        #expect(machine.deliver(.text("b")).consumer == nil)
        // And a reader coming back with no consumer waiting parks again
        #expect(machine.readerWaits(2).reader == nil)
    }

    @Test func aReaderArrivingAfterTheConsumerReadsAtOnce() {
        var machine = Machine()
        #expect(machine.consumerWaits(10).reader == nil)
        #expect(machine.readerWaits(1).reader?.1 == true)
    }

    @Test func aCloseStopsTheReaderAndReachesTheCloser() {
        var machine = Machine()
        _ = machine.readerWaits(1)
        #expect(machine.closerWaits(7).closer == nil)
        let close = machine.requestClose(.init(code: .normalClosure, reason: "bye"))
        #expect(close.reader?.1 == false)
        #expect(close.closer?.0 == 7)
        #expect(close.closer?.1 == .init(code: .normalClosure, reason: "bye"))
        // A second request changes nothing: the first wins
        let again = machine.requestClose(.init(code: .goingAway, reason: ""))
        #expect(again.closer == nil && again.reader == nil)
        // A reader after the close is told to stop
        #expect(machine.readerWaits(2).reader?.1 == false)
    }

    @Test func aDrainingCloseKeepsTheReaderGoingForTheConsumerUntilStopped() throws {
        var machine = Machine()
        // Given a reader waiting for the consumer, which is busy with the last message
        #expect(machine.readerWaits(1).reader == nil)
        // When a close that keeps reading is requested, the reader is not told to stop
        let close = machine.requestClose(.init(code: .normalClosure, reason: ""), keepsReading: true)
        #expect(close.reader == nil)
        #expect(machine.isClosing)
        // Then the consumer, back, wakes it; the message still reaches the consumer
        let back = machine.consumerWaits(10)
        #expect(back.reader?.0 == 1)
        #expect(back.reader?.1 == true)
        #expect(try machine.deliver(.text("reply")).consumer?.1.get() == .text("reply"))
        #expect(machine.readerWaits(2).reader == nil)
        let next = machine.consumerWaits(11)
        #expect(next.reader?.0 == 2)
        #expect(next.reader?.1 == true)
        // And when the consumer stops asking, stopReading releases the reader for the close handshake
        _ = machine.deliver(.text("more"))
        #expect(machine.readerWaits(3).reader == nil)
        let stopped = machine.stopReading()
        #expect(stopped.reader?.0 == 3)
        #expect(stopped.reader?.1 == false)
        #expect(machine.readerWaits(4).reader?.1 == false)
    }

    @Test func aCloseThatDoesNotDrainStopsEvenAReaderReadingForItsConsumer() {
        var machine = Machine()
        _ = machine.consumerWaits(10)
        #expect(machine.readerWaits(1).reader?.1 == true)
        #expect(machine.requestClose(.init(code: .normalClosure, reason: "")).reader == nil)
        // The message it was reading still goes to the consumer; then it stops
        #expect(machine.deliver(.text("last")).consumer?.0 == 10)
        _ = machine.consumerWaits(11)
        #expect(machine.readerWaits(2).reader?.1 == false)
    }

    @Test func cancellingTheConsumerDuringADrainingCloseStopsTheReader() {
        var machine = Machine()
        _ = machine.consumerWaits(10)
        _ = machine.readerWaits(1)
        _ = machine.requestClose(.init(code: .normalClosure, reason: ""), keepsReading: true)
        let cancelled = machine.consumerCancelled()
        #expect(cancelled.consumer?.0 == 10)
        // No one is left to read for: the reader, back from its read, stops
        #expect(machine.readerWaits(2).reader?.1 == false)
    }

    @Test func cancellingTheConsumerFailsItAndAsksFor1001() {
        var machine = Machine()
        _ = machine.consumerWaits(10)
        let cancelled = machine.consumerCancelled()
        #expect(cancelled.consumer?.0 == 10)
        #expect(throws: FerryError.self) { try cancelled.consumer?.1.get() }
        #expect(machine.isClosing)
        // The closer, arriving later, takes the pending 1001
        let closer = machine.closerWaits(7)
        #expect(closer.closer?.1?.code == .goingAway)
    }

    @Test func aCloseRequestedBeforeTheSocketOpenedIsKept() {
        var machine = Machine()
        _ = machine.requestClose(.init(code: .goingAway, reason: ""))
        #expect(machine.takePendingClose()?.code == .goingAway)
        #expect(machine.takePendingClose() == nil)
    }

    @Test func theEndReachesEveryoneAndEveryLaterConsumer() throws {
        var machine = Machine()
        _ = machine.consumerWaits(10)
        _ = machine.closerWaits(7)
        let end = machine.finish(.success(nil), closeFrame: WebSocketClose(code: .normalClosure))
        #expect(end.consumer?.0 == 10)
        #expect(try end.consumer?.1.get() == nil)
        #expect(end.closer?.0 == 7)
        #expect(end.closer?.1 == nil)
        #expect(machine.closeFrame?.code == .normalClosure)
        let later = machine.consumerWaits(11)
        #expect(later.consumer?.0 == 11)
        #expect(try later.consumer?.1.get() == nil)
        // A second end is ignored: the first stands
        _ = machine.finish(.failure(FerryError(.cancelled)), closeFrame: nil)
        #expect(machine.closeFrame?.code == .normalClosure)
    }

    @Test func aReaderThatStopsReleasesTheCloserWithNothingToSend() {
        var machine = Machine()
        _ = machine.closerWaits(7)
        let stopped = machine.readerStopped()
        #expect(stopped.closer?.0 == 7)
        #expect(stopped.closer?.1 == nil)
        #expect(machine.closerWaits(8).closer?.1 == nil)
    }

    // MARK: Pings

    @Test func aPongAnswersItsPingWhetherItComesBeforeOrAfterThePingerWaits() throws {
        var machine = Machine()
        // A pong read before its pinger waited is kept for it
        let early = try machine.pingSent(payload: [1]).get()
        #expect(machine.pongArrived(payload: [1]).pingers.isEmpty)
        let woken = machine.pingerWaits(early, continuation: 20)
        #expect(woken.pingers.map(\.0) == [20])
        #expect(throws: Never.self) { try woken.pingers.first?.1.get() }
        // A pinger that waits first is resumed by its pong
        let late = machine.pingSent(payload: [2])
        #expect(machine.pingerWaits(try late.get(), continuation: 21).pingers.isEmpty)
        #expect(machine.pongArrived(payload: [2]).pingers.map(\.0) == [21])
    }

    @Test func aPongAnswersTheLatestMatchingPingAndEveryEarlierOne() throws {
        var machine = Machine()
        let first = try machine.pingSent(payload: [1]).get()
        let second = try machine.pingSent(payload: [2]).get()
        let third = try machine.pingSent(payload: [3]).get()
        _ = machine.pingerWaits(first, continuation: 1)
        _ = machine.pingerWaits(third, continuation: 3)
        // The pong of the second answers the first and the second (not yet waiting), not the third
        #expect(machine.pongArrived(payload: [2]).pingers.map(\.0) == [1])
        #expect(machine.pingerWaits(second, continuation: 2).pingers.map(\.0) == [2])
        // A pong that matches nothing (unsolicited) answers nothing
        #expect(machine.pongArrived(payload: [9]).pingers.isEmpty)
        #expect(machine.pongArrived(payload: [3]).pingers.map(\.0) == [3])
    }

    @Test func theEndFailsEveryPingerWithHowTheSocketEnded() {
        var machine = Machine()
        let waiting = try? machine.pingSent(payload: []).get()
        let notYet = try? machine.pingSent(payload: [1]).get()
        _ = machine.pingerWaits(waiting ?? 0, continuation: 1)
        let end = machine.finish(.success(nil), closeFrame: WebSocketClose(code: .goingAway))
        #expect(end.pingers.map(\.0) == [1])
        #expect(end.pingers.first.map { (try? $0.1.get()) == nil } == true)
        // A pinger that waits after the end, and a ping sent after it, fail with the close code
        let after = machine.pingerWaits(notYet ?? 0, continuation: 2)
        #expect(Self.reason(after.pingers.first?.1) == .webSocketClosed(.goingAway))
        #expect(Self.reason(machine.pingSent(payload: []).map { _ in () }) == .webSocketClosed(.goingAway))
    }

    @Test func anAbandonedPingFailsItsWaitingPingerAndIsForgotten() {
        var machine = Machine()
        let id = (try? machine.pingSent(payload: []).get()) ?? 0
        _ = machine.pingerWaits(id, continuation: 1)
        let abandoned = machine.pingAbandoned(id)
        #expect(Self.reason(abandoned.pingers.first?.1) == .cancelled)
        #expect(machine.pongArrived(payload: []).pingers.isEmpty)
        // A cancellation that came before the pinger waited: the wait fails at once
        let other = (try? machine.pingSent(payload: []).get()) ?? 0
        #expect(machine.pingAbandoned(other).pingers.isEmpty)
        #expect(Self.reason(machine.pingerWaits(other, continuation: 2).pingers.first?.1) == .cancelled)
    }

    private static func reason(_ result: Result<Void, FerryError>?) -> FerryError.Reason? {
        guard case .failure(let error) = result else { return nil }
        return error.reason
    }
}
