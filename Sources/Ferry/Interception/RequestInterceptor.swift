/// Both a ``RequestAdapter`` and a ``RequestRetrier``; implement either method or both.
///
/// A session's chain (``Session/Configuration/interceptors``) runs first, then the request's own
/// (``Request/interceptors``). Before each attempt every interceptor adapts the request in that order. After a
/// failure they are asked in the same order, and the first that retries (or throws) decides; when none does, the
/// request fails with the attempt's error. An empty chain costs nothing: no allocation and no extra suspension.
///
/// ```swift
/// struct TraceHeader: RequestInterceptor {
///     func adapt(_ request: Request, attempt: Int) async throws -> Request {
///         var request = request
///         request.headers.update(name: "X-Attempt", value: String(attempt))
///         return request
///     }
/// }
/// let session = Session(configuration: .init(interceptors: [TraceHeader(), RetryPolicy()]))
/// ```
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}

extension RequestInterceptor {
    /// Returns the request unchanged.
    /// - Parameters:
    ///   - request: The request.
    ///   - attempt: The attempt about to start.
    /// - Returns: `request`.
    public func adapt(_ request: Request, attempt: Int) async throws -> Request {
        request
    }

    /// Does not retry.
    /// - Parameter failure: The failed attempt.
    /// - Returns: ``RetryDecision/doNotRetry``.
    public func retryDecision(for failure: FailedAttempt) async throws -> RetryDecision {
        .doNotRetry
    }
}
