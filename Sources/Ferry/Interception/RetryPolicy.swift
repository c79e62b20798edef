import Foundation

/// Retries transient failures with exponential backoff and full jitter, honouring `Retry-After`.
///
/// What it retries:
/// - the statuses in ``retryableStatusCodes`` (408, 429, 500, 502, 503, 504 by default) and the transport failures
///   ``FerryError/TransportFailure/connectionLost`` and ``FerryError/TransportFailure/cannotConnect``;
/// - only for idempotent methods (``retryableMethods``: `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`, `TRACE`), and for
///   any method carrying the ``idempotencyKeyHeader`` (`Idempotency-Key`) — except that a connection that could
///   not be made sent nothing, so `cannotConnect` is retried whatever the method.
///
/// Timeouts are not retried: a timeout ends the whole request (its total timeout counts every attempt and wait).
///
/// The wait before attempt *n + 1* is a random duration between zero and
/// `min(maximumDelay, baseDelay × 2ⁿ⁻¹)` ("full jitter"), or what the response's `Retry-After` asks for. A request
/// is tried at most ``maximumAttempts`` times, and never again when the wait would end after ``timeBudget``, counted
/// from the first attempt; a `Retry-After` longer than ``maximumDelay`` is not waited for. The wait runs on the
/// session's clock and ends at once when the request is cancelled.
///
/// ```swift
/// let session = Session(configuration: .init(interceptors: [RetryPolicy(maximumAttempts: 4)]))
/// ```
public struct RetryPolicy: RequestInterceptor {
    /// The most attempts, the first included; 3 by default.
    public var maximumAttempts: Int
    /// The cap of the first wait, doubled for each later one; 250 ms by default.
    public var baseDelay: Duration
    /// The longest wait, and the longest `Retry-After` honoured; 30 seconds by default.
    public var maximumDelay: Duration
    /// No retry is scheduled whose wait would end later than this after the first attempt started; `nil` for no
    /// budget. 60 seconds by default.
    public var timeBudget: Duration?
    /// The statuses retried.
    public var retryableStatusCodes: Set<Int>
    /// The methods retried.
    public var retryableMethods: Set<HTTPMethod>
    /// A header that makes any method retryable when the request carries it (`Idempotency-Key`); `nil` for none.
    public var idempotencyKeyHeader: String?
    /// Returns a number in `0...1` for the jitter; `Double.random(in: 0...1)` unless a test injects its own.
    let random: @Sendable () -> Double

    /// The statuses retried by default: 408, 429, 500, 502, 503 and 504.
    public static let defaultRetryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// The idempotent methods of RFC 9110: `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS` and `TRACE`.
    public static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace]

    /// Creates a policy.
    /// - Parameters:
    ///   - maximumAttempts: The most attempts, the first included.
    ///   - baseDelay: The cap of the first wait.
    ///   - maximumDelay: The longest wait, and the longest `Retry-After` honoured.
    ///   - timeBudget: The time after the first attempt's start by which every wait must end, or `nil`.
    ///   - retryableStatusCodes: The statuses retried.
    ///   - retryableMethods: The methods retried.
    ///   - idempotencyKeyHeader: The header that makes any method retryable, or `nil`.
    ///   - random: A source of numbers in `0...1` for the jitter.
    public init(
        maximumAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(250),
        maximumDelay: Duration = .seconds(30),
        timeBudget: Duration? = .seconds(60),
        retryableStatusCodes: Set<Int> = RetryPolicy.defaultRetryableStatusCodes,
        retryableMethods: Set<HTTPMethod> = RetryPolicy.idempotentMethods,
        idempotencyKeyHeader: String? = "Idempotency-Key",
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.timeBudget = timeBudget
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableMethods = retryableMethods
        self.idempotencyKeyHeader = idempotencyKeyHeader
        self.random = random
    }

    /// Retries a transient failure of a retryable request while attempts and time remain.
    /// - Parameter failure: The failed attempt.
    /// - Returns: The wait before the next attempt, or ``RetryDecision/doNotRetry``.
    public func retryDecision(for failure: FailedAttempt) async throws -> RetryDecision {
        decision(for: failure, now: Date())
    }

    /// The decision, with the wall-clock time `Retry-After` dates are measured from.
    func decision(for failure: FailedAttempt, now: Date) -> RetryDecision {
        guard failure.attempt < maximumAttempts, let transient = transience(of: failure.error),
            transient == .nothingSent || isRetryable(failure.request)
        else { return .doNotRetry }
        var delay = backoff(after: failure.attempt)
        if let value = failure.response?.headers["Retry-After"], let asked = RetryAfter.delay(value, now: now) {
            guard asked <= maximumDelay else { return .doNotRetry }
            delay = asked
        }
        if let timeBudget, failure.elapsed + delay > timeBudget { return .doNotRetry }
        return .retry(after: delay)
    }

    /// The full-jitter wait after attempt `attempt`: a random duration up to `baseDelay × 2^(attempt − 1)`, capped.
    /// - Parameter attempt: The number of the attempt that failed, from 1.
    /// - Returns: The wait.
    func backoff(after attempt: Int) -> Duration {
        let doublings = min(max(attempt - 1, 0), 32)
        let ceiling = min(maximumDelay, baseDelay * (Int64(1) << doublings))
        return ceiling * min(max(random(), 0), 1)
    }

    /// Whether the request may be sent twice: an idempotent method, or an idempotency key.
    func isRetryable(_ request: Request) -> Bool {
        retryableMethods.contains(request.method)
            || idempotencyKeyHeader.map { request.headers.contains($0) } ?? false
    }

    private enum Transience {
        /// The request never left: any method may be retried.
        case nothingSent
        /// The server may have acted on the request.
        case maybeProcessed
    }

    private func transience(of error: FerryError) -> Transience? {
        switch error.reason {
        case .transport(.cannotConnect): .nothingSent
        case .transport(.connectionLost): .maybeProcessed
        case .unacceptableStatus(let code) where retryableStatusCodes.contains(code): .maybeProcessed
        default: nil
        }
    }
}
