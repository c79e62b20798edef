@testable import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("Limits on requests in flight against the test server", .timeLimit(.minutes(1)))
struct LiveLimitTests {
    /// A live server with a `/hold` route and a session limited by `configure`.
    private static func limited(
        _ transport: TransportKind, route: HoldingRoute, configure: @escaping (inout Session.Configuration) -> Void
    ) throws -> LiveServer {
        let live = try LiveServer(transport: transport, configure: configure)
        live.server.setRoute("/hold", route.handler)
        return live
    }

    private static func held(_ session: Session, id: Int, base: String = "hold") -> Task<DataResponse<Data>, Never> {
        Task { await session.get(base, query: [.init(name: "id", value: "\(id)")]).response }
    }

    @Test(arguments: TransportKind.allCases) func theServerNeverSeesMoreThanTheLimit(
        transport: TransportKind
    ) async throws {
        let route = HoldingRoute()
        let live = try Self.limited(transport, route: route) { $0.maximumRequestsPerHost = 2 }
        let limiter = try #require(live.session.pipeline.limiter)
        let tasks = (0..<6).map { Self.held(live.session, id: $0) }

        try await waitUntil { route.inside == 2 && limiter.waitingCount == 4 }
        #expect(live.server.requestCount == 2, "the others wait in the client")
        route.release(6)
        var queued = 0
        for task in tasks {
            let response = await task.value
            #expect(response.statusCode == 200, "\(String(describing: response.error))")
            #expect(response.timeline.attempts.count == 1)
            if response.timeline.queueWait > .zero { queued += 1 }
        }
        #expect(route.mostInside == 2)
        #expect(queued >= 4, "the waits show in the timelines")
        #expect(limiter.inFlightCount == 0, "every slot was given back")
    }

    @Test(arguments: TransportKind.allCases) func waitersAreServedFirstComeFirstServed(
        transport: TransportKind
    ) async throws {
        let route = HoldingRoute()
        let live = try Self.limited(transport, route: route) { $0.maximumRequestsPerHost = 1 }
        let limiter = try #require(live.session.pipeline.limiter)
        var tasks = [Self.held(live.session, id: 0)]
        try await waitUntil { route.inside == 1 }
        for id in 1...4 {
            tasks.append(Self.held(live.session, id: id))
            try await waitUntil { limiter.waitingCount == id }
        }

        route.release(5)
        for task in tasks { #expect(await task.value.statusCode == 200) }
        #expect(route.arrivals == ["0", "1", "2", "3", "4"])
        #expect(route.mostInside == 1)
    }

    @Test(arguments: TransportKind.allCases) func aCancelledWaiterLeavesAtOnceAndLaterOnesProceed(
        transport: TransportKind
    ) async throws {
        let route = HoldingRoute()
        let live = try Self.limited(transport, route: route) { $0.maximumRequestsPerHost = 1 }
        let limiter = try #require(live.session.pipeline.limiter)
        let first = Self.held(live.session, id: 0)
        try await waitUntil { route.inside == 1 }
        let cancelled = Self.held(live.session, id: 1)
        try await waitUntil { limiter.waitingCount == 1 }
        let later = Self.held(live.session, id: 2)
        try await waitUntil { limiter.waitingCount == 2 }

        cancelled.cancel()
        let response = await cancelled.value
        // The first request still holds the only slot: the cancelled one ended without it.
        #expect(route.inside == 1)
        #expect(response.error?.isCancellation == true, "\(String(describing: response.error))")
        #expect(limiter.waitingCount == 1, "it left the queue")
        let attempt = try #require(response.timeline.attempts.first)
        #expect(attempt.failure == .cancelled)
        #expect(attempt.queueWait > .zero)
        #expect(attempt.response == nil)

        route.release(2)
        #expect(await first.value.statusCode == 200)
        #expect(await later.value.statusCode == 200)
        #expect(route.arrivals == ["0", "2"], "the cancelled request was never sent")
    }

    @Test(arguments: TransportKind.allCases) func aStopOfTheTransferEndsTheWaitToo(
        transport: TransportKind
    ) async throws {
        let route = HoldingRoute()
        let live = try Self.limited(transport, route: route) { $0.maximumRequestsInFlight = 1 }
        let limiter = try #require(live.session.pipeline.limiter)
        let first = Self.held(live.session, id: 0)
        try await waitUntil { route.inside == 1 }
        let waiting = live.session.get("hold", query: [.init(name: "id", value: "1")])
        waiting.resume()
        try await waitUntil { limiter.waitingCount == 1 }

        waiting.cancel()
        let result = await waiting.result
        #expect(route.inside == 1)
        #expect(limiter.waitingCount == 0)
        #expect((try? result.get()) == nil)
        route.release()
        #expect(await first.value.statusCode == 200)
    }

    @Test(arguments: TransportKind.allCases) func theTotalTimeoutCountsTheWait(transport: TransportKind) async throws {
        let route = HoldingRoute()
        let live = try Self.limited(transport, route: route) { $0.maximumRequestsPerHost = 1 }
        let limiter = try #require(live.session.pipeline.limiter)
        let first = Self.held(live.session, id: 0)
        try await waitUntil { route.inside == 1 }
        var request = Request(url: live.server.url("/hold?id=1"))
        request.totalTimeout = .milliseconds(200)

        let response = await live.session.request(request).response

        #expect(response.error?.reason == .timedOut(.total), "\(String(describing: response.error))")
        #expect(limiter.waitingCount == 0, "it left the queue")
        #expect(route.inside == 1 && route.arrivals == ["0"], "it was never sent")
        // The total timeout counts from the request's start, a moment before it joined the queue, so the wait
        // is a little shorter than the timeout (199.3 ms once, under TSan): it ended at that deadline.
        let attempt = try #require(response.timeline.attempts.first)
        #expect(attempt.queueWait > .zero)
        #expect(attempt.sendStart >= response.timeline.requestStart + .milliseconds(200))
        route.release()
        #expect(await first.value.statusCode == 200)
    }

    @Test(arguments: TransportKind.allCases) func perSessionAndPerHostLimitsTogether(
        transport: TransportKind
    ) async throws {
        let route = HoldingRoute()
        let live = try Self.limited(transport, route: route) {
            $0.maximumRequestsPerHost = 2
            $0.maximumRequestsInFlight = 3
        }
        let limiter = try #require(live.session.pipeline.limiter)
        let port = live.server.port
        let other = "http://localhost:\(port)/hold"
        var tasks = (0..<3).map { Self.held(live.session, id: $0) }
        try await waitUntil { route.inside == 2 && limiter.waitingCount == 1 }
        tasks += (3..<5).map { Self.held(live.session, id: $0, base: other) }
        try await waitUntil { route.inside == 3 && limiter.waitingCount == 2 }
        #expect(route.inside(host: "127.0.0.1:\(port)") == 2, "the host limit")
        #expect(route.inside(host: "localhost:\(port)") == 1, "the session limit")

        route.release(5)
        for task in tasks { #expect(await task.value.statusCode == 200) }
        #expect(route.mostInside == 3)
        #expect(route.mostInside(host: "127.0.0.1:\(port)") == 2)
        #expect(route.mostInside(host: "localhost:\(port)") <= 2)
        #expect(limiter.inFlightCount == 0)
    }

    @Test(arguments: TransportKind.allCases) func aRedirectToAnotherHostGivesBackTheFirstHostsSlot(
        transport: TransportKind
    ) async throws {
        let route = HoldingRoute()
        let live = try Self.limited(transport, route: route) { $0.maximumRequestsPerHost = 1 }
        let target = "http://localhost:\(live.server.port)/hold?id=redirected"
        let redirected = Task {
            await live.session.get("redirect-to", query: [.init(name: "url", value: target)]).response
        }
        try await waitUntil { route.inside == 1 }
        // The first host's slot is free again: a request to it goes at once.
        let direct = Self.held(live.session, id: 1)
        try await waitUntil { route.inside == 2 }

        route.release(2)
        #expect(await direct.value.statusCode == 200)
        let response = await redirected.value
        #expect(response.statusCode == 200)
        let attempts = response.timeline.attempts
        #expect(attempts.map(\.hop) == [0, 1])
        #expect(attempts.map(\.response?.statusCode) == [302, 200])
        #expect(attempts.map(\.url.host) == ["127.0.0.1", "localhost"])
    }
}
