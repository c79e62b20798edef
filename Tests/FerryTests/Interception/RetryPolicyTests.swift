@testable import Ferry
import Foundation
import Testing

@Suite("RetryPolicy decisions")
struct RetryPolicyTests {
    static let url = URL(string: "http://stub.test/x")!

    static func failure(
        _ method: HTTPMethod = .get, status: Int? = nil, reason: FerryError.Reason? = nil,
        headers: HTTPHeaders = [:], requestHeaders: HTTPHeaders = [:], attempt: Int = 1, elapsed: Duration = .zero
    ) -> FailedAttempt {
        let request = Request(method, url: url, headers: requestHeaders)
        let response = status.map { HTTPResponse(statusCode: $0, headers: headers, url: url) }
        let error = FerryError(reason ?? .unacceptableStatus(status ?? 0), request: request, response: response)
        return FailedAttempt(request: request, error: error, attempt: attempt, elapsed: elapsed)
    }

    static let half = RetryPolicy(baseDelay: .milliseconds(100), maximumDelay: .seconds(2), random: { 0.5 })

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retriesTransientStatuses(status: Int) {
        #expect(Self.half.decision(for: Self.failure(status: status), now: Date()) == .retry(after: .milliseconds(50)))
    }

    @Test(arguments: [400, 401, 403, 404, 409, 422, 501])
    func doesNotRetryOtherStatuses(status: Int) {
        #expect(Self.half.decision(for: Self.failure(status: status), now: Date()) == .doNotRetry)
    }

    @Test func backoffDoublesWithFullJitterUpToTheMaximum() {
        let policy = RetryPolicy(
            maximumAttempts: 10, baseDelay: .milliseconds(100), maximumDelay: .seconds(2), random: { 0.5 })
        let delays = (1...7).map { policy.backoff(after: $0) }
        #expect(
            delays == [
                .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
                .seconds(1), .seconds(1),
            ])
        let none = RetryPolicy(baseDelay: .seconds(1), random: { 0 })
        #expect(none.backoff(after: 3) == .zero)
        let full = RetryPolicy(baseDelay: .seconds(1), random: { 1 })
        #expect(full.backoff(after: 3) == .seconds(4))
    }

    @Test func onlyIdempotentMethodsAreRetried() {
        for method: HTTPMethod in [.get, .head, .put, .delete, .options, .trace] {
            #expect(Self.half.decision(for: Self.failure(method, status: 503), now: Date()).retries, "\(method)")
        }
        for method: HTTPMethod in [.post, .patch] {
            #expect(!Self.half.decision(for: Self.failure(method, status: 503), now: Date()).retries, "\(method)")
        }
    }

    @Test func anIdempotencyKeyMakesAPostRetryable() {
        let keyed = Self.failure(.post, status: 503, requestHeaders: ["Idempotency-Key": "8e03978e"])
        #expect(Self.half.decision(for: keyed, now: Date()).retries)
        var noKeys = Self.half
        noKeys.idempotencyKeyHeader = nil
        #expect(!noKeys.decision(for: keyed, now: Date()).retries)
    }

    @Test func transportFailures() {
        let lost = Self.failure(reason: .transport(.connectionLost))
        #expect(Self.half.decision(for: lost, now: Date()).retries)
        // Nothing was sent: even a POST without a key may go again.
        let refused = Self.failure(.post, reason: .transport(.cannotConnect))
        #expect(Self.half.decision(for: refused, now: Date()).retries)
        let lostPost = Self.failure(.post, reason: .transport(.connectionLost))
        #expect(!Self.half.decision(for: lostPost, now: Date()).retries)
        for reason: FerryError.Reason in [
            .timedOut(.idle), .timedOut(.total), .cancelled, .transport(.invalidResponse), .transport(.hostNotFound),
        ] {
            #expect(!Self.half.decision(for: Self.failure(reason: reason), now: Date()).retries, "\(reason)")
        }
    }

    @Test func retryAfterReplacesTheBackoff() {
        let seconds = Self.failure(status: 503, headers: ["Retry-After": "1"])
        #expect(Self.half.decision(for: seconds, now: Date()) == .retry(after: .seconds(1)))
        let now = Date(timeIntervalSince1970: 784_111_777 - 2)
        let date = Self.failure(status: 429, headers: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"])
        #expect(Self.half.decision(for: date, now: now) == .retry(after: .seconds(2)))
    }

    @Test func aRetryAfterLongerThanTheMaximumDelayIsNotWaitedFor() {
        let failure = Self.failure(status: 503, headers: ["Retry-After": "3"])
        #expect(Self.half.decision(for: failure, now: Date()) == .doNotRetry)
    }

    @Test func attemptsAndTimeBudgetAreLimits() {
        #expect(Self.half.decision(for: Self.failure(status: 503, attempt: 2), now: Date()).retries)
        #expect(!Self.half.decision(for: Self.failure(status: 503, attempt: 3), now: Date()).retries)
        var budgeted = Self.half
        budgeted.timeBudget = .seconds(1)
        let late = Self.failure(status: 503, elapsed: .milliseconds(960))
        #expect(budgeted.decision(for: late, now: Date()) == .doNotRetry, "a 50 ms wait would end after the budget")
        let early = Self.failure(status: 503, elapsed: .milliseconds(900))
        #expect(budgeted.decision(for: early, now: Date()).retries)
    }
}
