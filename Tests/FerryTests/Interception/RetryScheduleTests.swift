@testable import Ferry
import FerryTesting
import Foundation
import Testing

/// Retries through a whole session, on a clock the test advances: the waits are exact and nothing really sleeps.
@Suite("Retry schedules on an injected clock", .timeLimit(.minutes(1)))
struct RetryScheduleTests {
    /// A session whose server answers with `statuses` in turn (the last one from then on), retried by `policy`, on
    /// `clock`. The idle timeout is an hour, so the session's own timer sleeps later than any retry.
    static func session(
        answering statuses: [Int], headers: HTTPHeaders = [:], policy: RetryPolicy, clock: ManualTimeoutClock,
        calls: Counter
    ) -> Session {
        stubSession(configure: {
            $0.timeoutClock = clock
            $0.idleTimeout = .seconds(3600)
            $0.interceptors = [policy]
        }) { _ in
            calls.increment()
            let status = statuses[min(calls.count, statuses.count) - 1]
            return StubResponse(statusCode: status, headers: headers)
        }
    }

    /// The deadline of the retry's sleep: the earliest sleeper besides the session's timer.
    static func retrySleep(on clock: ManualTimeoutClock) async -> ContinuousClock.Instant? {
        await clock.waitForSleepers(count: 2).first
    }

    @Test func backoffWaitsExactlyAndThenSucceeds() async throws {
        let clock = ManualTimeoutClock()
        let calls = Counter()
        let policy = RetryPolicy(maximumAttempts: 4, baseDelay: .milliseconds(100), random: { 0.5 })
        let session = Self.session(answering: [503, 502, 200], policy: policy, clock: clock, calls: calls)
        async let response = session.get("flaky").response

        #expect(await Self.retrySleep(on: clock) == clock.now + .milliseconds(50))
        clock.advance(by: .milliseconds(49))
        #expect(calls.count == 1, "the wait is not over")
        clock.advance(by: .milliseconds(1))

        #expect(await Self.retrySleep(on: clock) == clock.now + .milliseconds(100), "doubled")
        #expect(calls.count == 2)
        clock.advance(by: .milliseconds(100))

        let result = await response
        #expect(result.statusCode == 200)
        #expect(result.error == nil)
        #expect(calls.count == 3)
        #expect(result.metrics.retryCount == 2)
    }

    @Test func retryAfterIsHonoured() async throws {
        let clock = ManualTimeoutClock()
        let calls = Counter()
        let policy = RetryPolicy(baseDelay: .milliseconds(100), random: { 1 })
        let session = Self.session(
            answering: [429, 200], headers: ["Retry-After": "7"], policy: policy, clock: clock, calls: calls)
        async let response = session.get("limited").response
        #expect(await Self.retrySleep(on: clock) == clock.now + .seconds(7))
        clock.advance(by: .seconds(7))
        #expect(await response.statusCode == 200)
    }

    @Test func theLastFailureStandsWhenAttemptsRunOut() async throws {
        let clock = ManualTimeoutClock()
        let calls = Counter()
        let policy = RetryPolicy(maximumAttempts: 2, baseDelay: .milliseconds(10), random: { 1 })
        let session = Self.session(answering: [503], policy: policy, clock: clock, calls: calls)
        async let response = session.get("down").response
        _ = await Self.retrySleep(on: clock)
        clock.advance(by: .milliseconds(10))
        let error = try #require(await response.error)
        #expect(error.reason == .unacceptableStatus(503))
        #expect(error.statusCode == 503)
        #expect(calls.count == 2)
    }

    @Test func cancellingEndsTheWaitAtOnce() async throws {
        let clock = ManualTimeoutClock()
        let calls = Counter()
        let policy = RetryPolicy(baseDelay: .seconds(30), random: { 1 })
        let session = Self.session(answering: [503], policy: policy, clock: clock, calls: calls)
        let task = session.get("down")
        async let response = task.response
        _ = await Self.retrySleep(on: clock)
        task.cancel()
        let error = try #require(await response.error)
        #expect(error.reason == .cancelled)
        #expect(calls.count == 1, "no attempt after the cancellation")
    }

    @Test func cancellingTheAwaitingTaskEndsTheWait() async throws {
        let clock = ManualTimeoutClock()
        let calls = Counter()
        let policy = RetryPolicy(baseDelay: .seconds(30), random: { 1 })
        let session = Self.session(answering: [503], policy: policy, clock: clock, calls: calls)
        let waiter = Task { await session.get("down").response }
        _ = await Self.retrySleep(on: clock)
        waiter.cancel()
        #expect(await waiter.value.error?.reason == .cancelled)
        #expect(calls.count == 1)
    }

    @Test func theTotalTimeoutCountsTheWaits() async throws {
        let clock = ManualTimeoutClock()
        let calls = Counter()
        let policy = RetryPolicy(baseDelay: .seconds(10), random: { 1 })
        let session = Self.session(answering: [503], policy: policy, clock: clock, calls: calls)
        var request = Request(url: URL(string: "http://stub.test/down")!)
        request.totalTimeout = .seconds(5)
        async let response = session.request(request).response
        await clock.waitForSleepers(count: 2)
        clock.advance(by: .seconds(5))
        #expect(await response.error?.reason == .timedOut(.total))
        #expect(calls.count == 1)
    }
}
