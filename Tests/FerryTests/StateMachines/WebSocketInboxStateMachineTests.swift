import Testing

@testable import Ferry

/// The inbox's rules with numbers for the waiting parties: no tasks, no sockets.
@Suite("WebSocket inbox state machine")
struct WebSocketInboxStateMachineTests {
    /// Consumer, reader, the socket task's wait for the end of reading, closer and pingers, as numbers.
    typealias Machine = WebSocketInboxStateMachine<Int, Int, Int, Int, Int>

    struct ReadFailed: Error {}

    @Test func theConsumerReadsOnlyWhenItAsks() throws {
        var machine = Machine()
        // Given an open socket and no consumer: nothing is read
        #expect(machine.attach(100).consumer == nil)
        // When the consumer asks, it reads with the socket's reader
        let asked = machine.consumerWaits(10)
        #expect(asked.consumer?.0 == 10)
        #expect(asked.consumer?.1.reader == 100)
        // Then the message it read is its own: nobody else is resumed, and the socket task keeps waiting
        #expect(machine.readFinished(.success(.text("a"))).consumer == nil)
        #expect(machine.readingEnds(50).readingEnd == nil)
        // And the next ask reads again, without waiting
        #expect(machine.consumerAsks()?.reader == 100)
        _ = machine.readFinished(.success(.text("b")))
        #expect(machine.consumerWaits(11).consumer?.1.reader == 100)
    }

    @Test func aConsumerThatMustWaitIsToldSo() throws {
        var machine = Machine()
        // Before the socket opens, the consumer must wait; after the end, it gets the end at once
        #expect(machine.consumerAsks() == nil)
        _ = machine.finish(.success(nil), closeFrame: nil)
        #expect(try machine.consumerAsks()?.delivery?.get() == nil)
        #expect(machine.consumerAsks()?.delivery != nil)
    }

    @Test func aConsumerThatAskedBeforeTheSocketOpenedReadsOnceItDoes() {
        var machine = Machine()
        #expect(machine.consumerWaits(10).consumer == nil)
        let opened = machine.attach(100)
        #expect(opened.consumer?.0 == 10)
        #expect(opened.consumer?.1.reader == 100)
    }

    @Test func aCloseLetsTheSocketTaskGoOnAndReachesTheCloser() {
        var machine = Machine()
        _ = machine.attach(100)
        #expect(machine.readingEnds(50).readingEnd == nil)
        #expect(machine.closerWaits(7).closer == nil)
        let close = machine.requestClose(.init(code: .normalClosure, reason: "bye"))
        #expect(close.readingEnd?.0 == 50)
        #expect(close.readingEnd?.1 == nil)
        #expect(close.closer?.0 == 7)
        #expect(close.closer?.1 == .init(code: .normalClosure, reason: "bye"))
        // A second request changes nothing: the first wins
        let again = machine.requestClose(.init(code: .goingAway, reason: ""))
        #expect(again.closer == nil && again.readingEnd == nil)
        // A consumer after the close reads nothing: it waits for the end
        #expect(machine.consumerWaits(10).consumer == nil)
    }

    @Test func aCloseWaitsForTheReadUnderWay() throws {
        var machine = Machine()
        _ = machine.attach(100)
        _ = machine.consumerWaits(10)
        #expect(machine.readingEnds(50).readingEnd == nil)
        // The close is sent, but the socket task waits: the consumer is still reading
        let close = machine.requestClose(.init(code: .normalClosure, reason: ""))
        #expect(close.closer == nil && close.readingEnd == nil)
        // The message it was reading still goes to the consumer; then the socket task goes on
        let finished = machine.readFinished(.success(.text("last")))
        #expect(finished.readingEnd?.0 == 50)
        #expect(machine.consumerWaits(11).consumer == nil)
    }

    @Test func aDrainingCloseKeepsTheConsumerReadingUntilTheMessagesEnd() {
        var machine = Machine()
        _ = machine.attach(100)
        #expect(machine.readingEnds(50).readingEnd == nil)
        // When a close that keeps reading is requested, the socket task still waits
        let close = machine.requestClose(.init(code: .normalClosure, reason: ""), keepsReading: true)
        #expect(close.readingEnd == nil)
        #expect(machine.isClosing)
        // Then the consumer reads on, until the peer's close frame ends the messages
        #expect(machine.consumerWaits(10).consumer?.1.reader == 100)
        #expect(machine.readFinished(.success(.text("reply"))).readingEnd == nil)
        #expect(machine.consumerWaits(11).consumer?.1.reader == 100)
        #expect(machine.readFinished(.success(nil)).readingEnd?.0 == 50)
        // And a consumer asking after that waits for the end
        #expect(machine.consumerWaits(12).consumer == nil)
    }

    @Test func aDrainingCloseIsStoppedWhenTheConsumerStopsAsking() {
        var machine = Machine()
        _ = machine.attach(100)
        _ = machine.readingEnds(50)
        _ = machine.requestClose(.init(code: .normalClosure, reason: ""), keepsReading: true)
        let stopped = machine.stopReading()
        #expect(stopped.readingEnd?.0 == 50)
        #expect(machine.consumerWaits(10).consumer == nil)
    }

    @Test func aReadThatFailsEndsReadingWithItsError() {
        var machine = Machine()
        _ = machine.attach(100)
        _ = machine.readingEnds(50)
        _ = machine.consumerWaits(10)
        let failed = machine.readFinished(.failure(ReadFailed()))
        #expect(failed.readingEnd?.0 == 50)
        #expect(failed.readingEnd?.1 is ReadFailed)
        // A socket task that asks later learns the same
        #expect(machine.readingEnds(51).readingEnd?.1 is ReadFailed)
    }

    @Test func cancellingAReadingConsumerAsksFor1001AndWaitsForItsRead() {
        var machine = Machine()
        _ = machine.attach(100)
        _ = machine.readingEnds(50)
        _ = machine.consumerWaits(10)
        // The consumer is reading, not waiting: nobody is resumed, and the close is kept for the closer
        let cancelled = machine.consumerCancelled()
        #expect(cancelled.consumer == nil && cancelled.readingEnd == nil)
        #expect(machine.isClosing)
        #expect(machine.closerWaits(7).closer?.1?.code == .goingAway)
        // Its read ends (the cancellation ends it): the socket task goes on
        #expect(machine.readFinished(.success(nil)).readingEnd?.0 == 50)
    }

    @Test func cancellingAWaitingConsumerFailsItAndAsksFor1001() {
        var machine = Machine()
        _ = machine.consumerWaits(10)
        let cancelled = machine.consumerCancelled()
        #expect(cancelled.consumer?.0 == 10)
        #expect(throws: FerryError.self) { try cancelled.consumer?.1.delivery?.get() }
        #expect(machine.isClosing)
        // The closer, arriving later, takes the pending 1001
        let closer = machine.closerWaits(7)
        #expect(closer.closer?.1?.code == .goingAway)
        // A socket that opens after it reads nothing
        #expect(machine.attach(100).consumer == nil)
        #expect(machine.readingEnds(50).readingEnd?.0 == 50)
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
        _ = machine.readingEnds(50)
        let end = machine.finish(.success(nil), closeFrame: WebSocketClose(code: .normalClosure))
        #expect(end.consumer?.0 == 10)
        #expect(try end.consumer?.1.delivery?.get() == nil)
        #expect(end.closer?.0 == 7)
        #expect(end.closer?.1 == nil)
        #expect(end.readingEnd?.0 == 50)
        #expect(machine.closeFrame?.code == .normalClosure)
        let later = machine.consumerWaits(11)
        #expect(later.consumer?.0 == 11)
        #expect(try later.consumer?.1.delivery?.get() == nil)
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

extension WebSocketConsumerTurn {
    /// The reader the consumer is to read with, if that is the turn.
    fileprivate var reader: Reader? {
        if case .read(let reader) = self { reader } else { nil }
    }

    /// What the consumer is to return, if that is the turn.
    fileprivate var delivery: WebSocketDelivery? {
        if case .deliver(let delivery) = self { delivery } else { nil }
    }
}
