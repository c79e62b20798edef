import Testing

@testable import Ferry

/// A WebSocket's opening with strings for sockets and numbers for waiting tasks: no tasks, no sockets.
@Suite("WebSocket connection state machine")
struct WebSocketConnectionStateMachineTests {
    typealias Machine = WebSocketConnectionStateMachine<String, Int>

    @Test func theFirstTaskPerformsTheHandshakeAndTheOthersWaitForIt() throws {
        var machine = Machine()
        guard case .handshake = machine.open() else { Issue.record("the first task performs it"); return }
        guard case .wait = machine.open() else { Issue.record("a second waits"); return }
        #expect(machine.wait(1) == nil)
        #expect(machine.wait(2) == nil)
        #expect(machine.openSocket == nil)
        // When it ends, every waiter is resumed, and later tasks find the socket open
        #expect(machine.handshakeEnded(.success("socket")) == [1, 2])
        #expect(machine.openSocket == "socket")
        guard case .open("socket") = machine.open() else { Issue.record("it is open"); return }
    }

    @Test func aWaiterThatComesAfterTheEndIsAnsweredAtOnce() throws {
        var machine = Machine()
        _ = machine.open()
        guard case .wait = machine.open() else { Issue.record("it waits"); return }
        // The handshake ends between that task's claim and its wait
        #expect(machine.handshakeEnded(.failure(FerryError(.timedOut(.idle)))).isEmpty)
        guard case .failure(let error) = machine.wait(3) else { Issue.record("answered at once"); return }
        #expect(error.reason == .timedOut(.idle))
        // Every later use gets the same failure
        guard case .failed(let again) = machine.open() else { Issue.record("failed for good"); return }
        #expect(again.reason == .timedOut(.idle))
    }

    @Test func aCloseBeforeTheHandshakeMarksItClosedForGood() {
        var machine = Machine()
        guard case .markClosed = machine.close(closed: FerryError(.webSocketClosed(.goingAway))) else {
            Issue.record("a socket never opened is only marked closed")
            return
        }
        guard case .failed(let error) = machine.open() else { Issue.record("it never opens"); return }
        #expect(error.reason == .webSocketClosed(.goingAway))
        guard case .none = machine.close(closed: FerryError(.webSocketClosed(.normalClosure))) else {
            Issue.record("closing again does nothing")
            return
        }
    }

    @Test func aCloseDuringOrAfterTheHandshakeClosesTheSocket() {
        var machine = Machine()
        _ = machine.open()
        guard case .closeWhenOpen = machine.close(closed: FerryError(.cancelled)) else {
            Issue.record("during the handshake, the close waits for it")
            return
        }
        _ = machine.handshakeEnded(.success("socket"))
        guard case .close("socket") = machine.close(closed: FerryError(.cancelled)) else {
            Issue.record("an open socket is closed")
            return
        }
    }
}
