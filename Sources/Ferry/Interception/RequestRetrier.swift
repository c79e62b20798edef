/// Decides, after an attempt failed, whether and when to try the request again.
///
/// A session asks its retriers after a transport failure and after a final response head that the task's
/// ``Validation`` rejects by its status or declared content type (a 503 under the default 2xx validation; a task's
/// own `validate(statusCode:)` or `unvalidated()` is the rule the retriers see). It never asks about a request that was
/// cancelled or ran out of time, and never retries a request whose body is a one-shot stream
/// (``RequestBody/Content/stream(_:count:)``): such a request fails with the attempt's error.
public protocol RequestRetrier: Sendable {
    /// Decides whether to try the request again.
    /// - Parameter failure: The attempt that failed: its request, its error (with the response head when one
    ///   arrived), its number and the time spent so far.
    /// - Returns: ``RetryDecision/doNotRetry``, or ``RetryDecision/retry(after:)`` with the wait.
    /// - Throws: Any error, which ends the request with it (a ``FerryError`` as it is, anything else as
    ///   ``FerryError/Reason/interceptorFailed``) instead of the attempt's error.
    func retryDecision(for failure: FailedAttempt) async throws -> RetryDecision
}

/// Whether to try a failed request again, and after how long.
public struct RetryDecision: Sendable, Hashable, CustomStringConvertible {
    /// The wait before the next attempt, or `nil` not to retry.
    public let delay: Duration?

    private init(delay: Duration?) {
        self.delay = delay
    }

    /// The attempt's error stands: the request fails with it, unless a later retrier in the chain retries.
    public static let doNotRetry = RetryDecision(delay: nil)

    /// Tries again once `delay` has passed on the session's clock; a cancellation ends the wait at once.
    /// - Parameter delay: The wait; zero (the default) or less retries at once.
    /// - Returns: The decision.
    public static func retry(after delay: Duration = .zero) -> RetryDecision {
        RetryDecision(delay: max(delay, .zero))
    }

    /// Whether the request is tried again.
    public var retries: Bool { delay != nil }

    /// `retry after 1.5 seconds` or `do not retry`.
    public var description: String {
        delay.map { "retry after \($0)" } ?? "do not retry"
    }
}
