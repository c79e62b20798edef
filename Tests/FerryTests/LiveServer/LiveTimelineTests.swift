import Ferry
import FerryTestServer
import Foundation
import Synchronization
import Testing
import FerryLocking

@Suite("Per-attempt timelines against the test server", .timeLimit(.minutes(1)))
struct LiveTimelineTests {
    /// Checks that each attempt's instants are in order and that each attempt starts after the previous one ended.
    private static func expectOrdered(_ attempts: [Timeline.Attempt], within timeline: Timeline) {
        var previousEnd: ContinuousClock.Instant?
        for attempt in attempts {
            if let previousEnd { #expect(previousEnd <= attempt.start) }
            #expect(attempt.start <= attempt.sendStart)
            if let head = attempt.responseStart {
                #expect(attempt.sendStart <= head)
                #expect(head <= attempt.end)
            }
            previousEnd = attempt.end
        }
        #expect(previousEnd == timeline.requestCompleted, "the last attempt ends with the transfer")
    }

    @Test(arguments: TransportKind.allCases) func aRetriedRequestListsEveryAttempt(
        transport: TransportKind
    ) async throws {
        let calls = Locked(0)
        let live = try LiveServer(transport: transport) {
            $0.interceptors = [RetryPolicy(maximumAttempts: 4, baseDelay: .milliseconds(1), random: { 0 })]
        }
        live.server.setRoute("/flaky") { _ in
            calls.withLock { $0 += 1 }
            return calls.withLock { $0 } < 3 ? .status(503) : .text("fine")
        }

        let response = await live.session.get("flaky").response

        #expect(response.statusCode == 200)
        let attempts = response.timeline.attempts
        #expect(attempts.map(\.attempt) == [1, 2, 3])
        #expect(attempts.map(\.hop) == [0, 0, 0])
        #expect(attempts.map(\.response?.statusCode) == [503, 503, 200])
        #expect(attempts.map(\.retryDelay) == [.zero, .zero, nil])
        #expect(attempts.allSatisfy { $0.failure == nil && !$0.isRedirect && $0.method == .get })
        #expect(attempts.allSatisfy { $0.queueWait == .zero }, "no limit, no wait")
        #expect(response.metrics.retryCount == 2)
        Self.expectOrdered(attempts, within: response.timeline)
    }

    @Test(arguments: TransportKind.allCases) func aRetriedTransportFailureRecordsItsReason(
        transport: TransportKind
    ) async throws {
        let calls = Locked(0)
        let live = try LiveServer(transport: transport) {
            $0.interceptors = [RetryPolicy(maximumAttempts: 2, baseDelay: .milliseconds(1), random: { 0 })]
        }
        live.server.setRoute("/once") { _ in
            calls.withLock { $0 += 1 }
            return calls.withLock { $0 } == 1 ? .fault(.close) : .text("fine")
        }

        let response = await live.session.get("once").response

        #expect(response.statusCode == 200, "\(String(describing: response.error))")
        let attempts = response.timeline.attempts
        #expect(attempts.count == 2)
        #expect(attempts.first?.response == nil)
        #expect(attempts.first?.failure != nil)
        #expect(attempts.first?.retryDelay == .zero)
        #expect(attempts.last?.failure == nil)
        Self.expectOrdered(attempts, within: response.timeline)
    }

    @Test(arguments: TransportKind.allCases) func aRedirectedRequestListsEveryHop(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)

        let response = await live.session.get("redirect/2").response

        #expect(response.statusCode == 200)
        let attempts = response.timeline.attempts
        #expect(attempts.map(\.attempt) == [1, 1, 1])
        #expect(attempts.map(\.hop) == [0, 1, 2])
        #expect(attempts.map(\.isRedirect) == [false, true, true])
        #expect(attempts.map(\.response?.statusCode) == [302, 302, 200])
        #expect(attempts.map(\.url) == response.metrics.urls)
        #expect(attempts.allSatisfy { $0.retryDelay == nil && $0.failure == nil })
        #expect(attempts.first?.requestHeaders["User-Agent"] == "Ferry/\(Session.version)")
        #expect(response.timeline.firstResponseByte == attempts.first?.responseStart)
        Self.expectOrdered(attempts, within: response.timeline)
    }

    @Test(arguments: TransportKind.allCases) func aFailureEndsTheLastAttempt(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport) { $0.maximumBodySize = 10 }

        let response = await live.session.get("bytes/100").response

        let attempt = try #require(response.timeline.attempts.last)
        #expect(response.timeline.attempts.count == 1)
        #expect(attempt.response?.statusCode == 200)
        #expect(attempt.failure == .bodyTooLarge(limit: 10))
        #expect(attempt.end == response.timeline.requestCompleted)
    }
}
