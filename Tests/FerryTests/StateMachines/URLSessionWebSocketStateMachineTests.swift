import Testing

@testable import Ferry

/// A `URLSessionWebSocketTask`'s life as Ferry tracks it, with numbers for the waiting tasks: no URLSession.
@Suite("URLSession WebSocket state machine")
struct URLSessionWebSocketStateMachineTests {
    typealias Machine = URLSessionWebSocketStateMachine<Int, Int>

    @Test func theUpgradesWaiterIsResumedOnceWhenItOpens() {
        var machine = Machine()
        // Given a task awaiting the upgrade
        let first = machine.waitForOpen(1)
        #expect(first == .wait)
        // When URLSession says it opened
        let resumed = machine.opened(subprotocol: "chat")
        #expect(resumed == 1)
        // Then the subprotocol is kept, a second report resumes no one, and a late waiter hears at once
        #expect(machine.subprotocol == "chat")
        let again = machine.opened(subprotocol: "other")
        #expect(again == nil)
        #expect(machine.subprotocol == "chat")
        let late = machine.waitForOpen(2)
        #expect(late == .now(.opened))
        // And its completion later resumes nobody's upgrade
        let completion = machine.completed()
        #expect(completion.opening == nil)
    }

    @Test func aTaskThatCompletesBeforeOpeningFailsTheWaiter() {
        var machine = Machine()
        _ = machine.waitForOpen(1)
        let completion = machine.completed()
        #expect(completion.opening?.0 == 1)
        #expect(completion.opening?.1 == .failed(expired: false))
        #expect(machine.hasEnded)
        // A waiter after the end fails at once, and an open reported afterwards changes nothing
        let late = machine.waitForOpen(2)
        #expect(late == .now(.failed(expired: false)))
        let opened = machine.opened(subprotocol: nil)
        #expect(opened == nil)
    }

    @Test func aHandshakeThatRunsOutOfTimeSaysSoOnlyWhileConnecting() {
        var machine = Machine()
        _ = machine.waitForOpen(1)
        // When the time runs out while it connects, the task must be cancelled
        let expired = machine.expire()
        #expect(expired)
        // Then the cancelled task's completion fails the waiter as expired
        let completion = machine.completed()
        #expect(completion.opening?.1 == .failed(expired: true))

        var open = Machine()
        _ = open.opened(subprotocol: nil)
        // An open socket does not expire
        let openExpired = open.expire()
        #expect(!openExpired)
        let openCompletion = open.completed()
        #expect(openCompletion.opening == nil)
    }

    @Test func aTLSRefusalWhileConnectingIsWhatTheUpgradeFailsWith() {
        let pin = FerryError(
            .transport(.secureConnectionFailed), detail: .tlsFailed("no pinned key in the chain of example.com"),
            underlyingError: nil)
        let roots = FerryError(
            .transport(.secureConnectionFailed), detail: .tlsFailed("the chain is not trusted"), underlyingError: nil)
        var machine = Machine()
        _ = machine.waitForOpen(1)
        // Given the delegate refusing the server's TLS twice (the second would be a later challenge)
        machine.refuse(pin)
        machine.refuse(roots)
        // When URLSession completes the cancelled task, even after the handshake's time ran out
        _ = machine.expire()
        let completion = machine.completed()
        // Then the waiter gets the first refusal, not a cancellation or a timeout, and so does a late waiter
        #expect(completion.opening?.0 == 1)
        #expect(completion.opening?.1 == .refused(pin))
        #expect(completion.opening?.1 != .refused(roots))
        let late = machine.waitForOpen(2)
        #expect(late == .now(.refused(pin)))

        // A refusal reported after the socket opened changes nothing
        var open = Machine()
        _ = open.opened(subprotocol: nil)
        open.refuse(pin)
        _ = open.completed()
        let afterOpen = open.waitForOpen(3)
        #expect(afterOpen == .now(.failed(expired: false)))
    }

    @Test func onlyTheFirstCloseIsSentAndNoneAfterTheEnd() {
        var machine = Machine()
        _ = machine.opened(subprotocol: nil)
        let first = machine.sendsClose(WebSocketClose(code: .messageTooBig))
        let second = machine.sendsClose(WebSocketClose(code: .normalClosure))
        #expect(first && !second)
        #expect(machine.sentClose == WebSocketClose(code: .messageTooBig))

        var ended = Machine()
        _ = ended.opened(subprotocol: nil)
        _ = ended.completed()
        let afterEnd = ended.sendsClose(WebSocketClose(code: .normalClosure))
        #expect(!afterEnd)
        #expect(ended.sentClose == nil)
    }

    @Test func theServersFirstCloseFrameIsKept() {
        var machine = Machine()
        machine.serverClosed(WebSocketClose(code: .goingAway, reason: "restart"))
        machine.serverClosed(WebSocketClose(code: .normalClosure))
        #expect(machine.serverClose == WebSocketClose(code: .goingAway, reason: "restart"))
    }

    @Test func everyoneWaitingForTheEndIsResumedOnce() {
        var machine = Machine()
        _ = machine.opened(subprotocol: nil)
        let (first, second) = (machine.waitForEnd(1), machine.waitForEnd(2))
        #expect(!first && !second)
        let completion = machine.completed()
        #expect(completion.ended == [1, 2])
        // After the end a waiter is told to go on at once, and nobody is resumed twice
        let late = machine.waitForEnd(3)
        #expect(late)
        let again = machine.completed()
        #expect(again.ended.isEmpty)
    }

    @Test func aKeepAlivePingUnansweredByTheNextTakesThePeerForGone() {
        var machine = Machine()
        // The first ping goes out
        let first = machine.keepAlivePingDue()
        #expect(first)
        // An answer (a pong, or any message) lets the next one go
        machine.peerAnswered()
        let second = machine.keepAlivePingDue()
        #expect(second)
        // Without one, the next falls due with the last still in flight: the peer is gone
        let third = machine.keepAlivePingDue()
        #expect(!third)
    }
}
