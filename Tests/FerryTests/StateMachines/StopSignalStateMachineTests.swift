@testable import Ferry
import Testing

@Suite("Stop signal state machine")
struct StopSignalStateMachineTests {
    private typealias Machine = StopSignal.StateMachine<String>

    @Test func theFirstStopWinsAndReachesTheInstalledHandler() {
        var machine = Machine()
        #expect(machine.install("send") == nil)
        #expect(machine.stop(FerryError(.timedOut(.idle))) == "send")
        #expect(machine.stop(FerryError(.cancelled)) == nil)
        #expect(machine.error?.reason == .timedOut(.idle))
    }

    @Test func aHandlerInstalledAfterTheStopIsToldAtOnce() {
        var machine = Machine()
        #expect(machine.stop(FerryError(.cancelled)) == nil)
        #expect(machine.install("body")?.reason == .cancelled)
    }

    @Test func aNewHandlerReplacesTheOldOneAndCanBeRemoved() {
        var machine = Machine()
        _ = machine.install("head")
        _ = machine.install("body")
        machine.removeHandler()
        #expect(machine.stop(FerryError(.cancelled)) == nil)
        #expect(machine.error?.reason == .cancelled)
    }
}
