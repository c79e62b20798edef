@testable import Ferry
import Foundation
import Testing

@Suite("Request limiter state machine")
struct RequestLimiterStateMachineTests {
    private typealias Machine = RequestLimiter.StateMachine<String>

    /// Queues a request for `host` and parks `waiter`; records an issue when it was granted at once.
    private static func enqueue(_ machine: inout Machine, _ host: String, waiter: String) -> UInt64 {
        guard case .queued(let ticket) = machine.acquire(host) else {
            Issue.record("\(waiter) should wait")
            return 0
        }
        guard case .parked = machine.park(ticket, waiter: waiter) else {
            Issue.record("\(waiter) should park")
            return ticket
        }
        return ticket
    }

    private static func names(_ resumptions: [Machine.Resumption]) -> [String] {
        resumptions.map { $0.error == nil ? $0.waiter : "\($0.waiter) failed" }
    }

    @Test func requestsWithinTheLimitGoAtOnce() {
        var machine = Machine(perHost: 2, total: nil)
        #expect(machine.acquire("a") == .granted)
        #expect(machine.acquire("a") == .granted)
        #expect(machine.acquire("b") == .granted, "another host has its own slots")
        #expect(machine.inFlightCount == 3)
        #expect(machine.inFlightCount(for: "a") == 2)
        #expect(machine.waitingCount == 0)
    }

    @Test func waitersAreServedFirstComeFirstServed() {
        var machine = Machine(perHost: 1, total: nil)
        #expect(machine.acquire("a") == .granted)
        _ = Self.enqueue(&machine, "a", waiter: "second")
        _ = Self.enqueue(&machine, "a", waiter: "third")
        _ = Self.enqueue(&machine, "a", waiter: "fourth")
        #expect(Self.names(machine.release("a")) == ["second"])
        #expect(Self.names(machine.release("a")) == ["third"])
        #expect(Self.names(machine.release("a")) == ["fourth"])
        #expect(machine.release("a").isEmpty)
        #expect(machine.inFlightCount == 0)
        #expect(machine.waitingCount == 0)
    }

    @Test func aCancelledWaiterLeavesAtOnceAndHoldsNoPlace() {
        var machine = Machine(perHost: 1, total: nil)
        #expect(machine.acquire("a") == .granted)
        let second = Self.enqueue(&machine, "a", waiter: "second")
        _ = Self.enqueue(&machine, "a", waiter: "third")
        let cancelled = machine.cancel(second, error: FerryError(.cancelled))
        #expect(cancelled?.waiter == "second")
        #expect(cancelled?.error?.reason == .cancelled)
        #expect(machine.waitingCount == 1)
        #expect(Self.names(machine.release("a")) == ["third"], "the next waiter gets the slot")
        #expect(machine.cancel(second, error: FerryError(.cancelled)) == nil, "a second cancel does nothing")
    }

    @Test func cancellingAGrantedTicketDoesNothing() {
        var machine = Machine(perHost: 1, total: nil)
        #expect(machine.acquire("a") == .granted)
        let ticket = Self.enqueue(&machine, "a", waiter: "w")
        #expect(Self.names(machine.release("a")) == ["w"])
        #expect(machine.cancel(ticket, error: FerryError(.cancelled)) == nil)
        #expect(machine.inFlightCount == 1, "the granted request keeps its slot until it releases it")
    }

    @Test func aCancellationBeforeParkingIsHandedToThePark() {
        var machine = Machine(perHost: nil, total: 1)
        #expect(machine.acquire("a") == .granted)
        guard case .queued(let ticket) = machine.acquire("b") else { Issue.record("queued"); return }
        #expect(machine.cancel(ticket, error: FerryError(.timedOut(.total))) == nil, "nothing parked yet")
        #expect(machine.waitingCount == 0, "it left the queue at once")
        guard case .resume(let error) = machine.park(ticket, waiter: "late") else { Issue.record("resumed"); return }
        #expect(error?.reason == .timedOut(.total))
        #expect(machine.release("a").isEmpty)
    }

    @Test func aGrantBeforeParkingIsHandedToThePark() {
        var machine = Machine(perHost: 1, total: nil)
        #expect(machine.acquire("a") == .granted)
        guard case .queued(let ticket) = machine.acquire("a") else { Issue.record("queued"); return }
        #expect(machine.release("a").isEmpty, "granted, but nobody is parked to resume")
        guard case .resume(let error) = machine.park(ticket, waiter: "late") else { Issue.record("resumed"); return }
        #expect(error == nil, "granted")
        #expect(machine.inFlightCount(for: "a") == 1)
    }

    @Test func theSessionLimitAndTheHostLimitHoldTogether() {
        var machine = Machine(perHost: 2, total: 3)
        #expect(machine.acquire("a") == .granted)
        #expect(machine.acquire("a") == .granted)
        _ = Self.enqueue(&machine, "a", waiter: "a3")
        #expect(machine.acquire("b") == .granted, "the session has room for a third")
        _ = Self.enqueue(&machine, "b", waiter: "b2")
        _ = Self.enqueue(&machine, "c", waiter: "c1")
        #expect(machine.inFlightCount == 3)
        // A slot of b frees one in the session: a3 still finds a full host, so b2, the next in line, goes.
        #expect(Self.names(machine.release("b")) == ["b2"])
        // A slot of a: a3 is first in line and fits.
        #expect(Self.names(machine.release("a")) == ["a3"])
        #expect(Self.names(machine.release("a")) == ["c1"])
        #expect(machine.waitingCount == 0)
    }

    @Test func aFullHostDoesNotHoldBackALaterRequestForAnotherHost() {
        var machine = Machine(perHost: 1, total: 2)
        #expect(machine.acquire("a") == .granted)
        #expect(machine.acquire("b") == .granted)
        _ = Self.enqueue(&machine, "a", waiter: "a2")
        _ = Self.enqueue(&machine, "c", waiter: "c1")
        #expect(Self.names(machine.release("b")) == ["c1"])
        #expect(machine.waitingCount == 1)
    }

    @Test func limitsBelowOneCountAsOne() {
        var machine = Machine(perHost: 0, total: -3)
        #expect(machine.acquire("a") == .granted)
        guard case .queued = machine.acquire("a") else { Issue.record("the second waits"); return }
    }

    @Test func hostKeysNameSchemeHostAndPort() throws {
        let key = { (text: String) in RequestLimiter.hostKey(of: URL(string: text)!) }
        #expect(key("http://Example.com/a") == key("http://example.com:80/b?c"))
        #expect(key("https://example.com/") == "https://example.com:443")
        #expect(key("http://example.com/") != key("https://example.com/"))
        #expect(key("http://example.com:8080/") != key("http://example.com/"))
        #expect(RequestLimiter(perHost: nil, total: nil) == nil, "no limit, no limiter")
    }
}
