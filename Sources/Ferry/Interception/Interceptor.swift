/// An interceptor made of closures, or of an adapter or a retrier alone.
///
/// ```swift
/// let apiKey = Interceptor.adapter { request in
///     var request = request
///     request.headers.update(name: "X-API-Key", value: key)
///     return request
/// }
/// let once = Interceptor.retrier { failure in
///     failure.attempt == 1 && failure.error.statusCode == 409 ? .retry() : .doNotRetry
/// }
/// ```
public struct Interceptor: RequestInterceptor {
    private let adaptation: (@Sendable (Request, Int) async throws -> Request)?
    private let decision: (@Sendable (FailedAttempt) async throws -> RetryDecision)?

    /// Creates an interceptor from closures; a missing closure leaves the request unchanged or does not retry.
    /// - Parameters:
    ///   - adapt: Gets the request and the attempt number, returns the request to send.
    ///   - retry: Gets the failed attempt, returns whether and when to retry.
    public init(
        adapt: (@Sendable (_ request: Request, _ attempt: Int) async throws -> Request)? = nil,
        retry: (@Sendable (_ failure: FailedAttempt) async throws -> RetryDecision)? = nil
    ) {
        adaptation = adapt
        decision = retry
    }

    /// Creates an interceptor that only adapts, with `adapter`.
    /// - Parameter adapter: The adapter.
    public init(adapter: some RequestAdapter) {
        self.init(adapt: { request, attempt in try await adapter.adapt(request, attempt: attempt) })
    }

    /// Creates an interceptor that only decides retries, with `retrier`.
    /// - Parameter retrier: The retrier.
    public init(retrier: some RequestRetrier) {
        self.init(retry: { failure in try await retrier.retryDecision(for: failure) })
    }

    /// An interceptor that adapts every attempt with `adapt`.
    /// - Parameter adapt: Gets the request, returns the request to send.
    /// - Returns: The interceptor.
    public static func adapter(
        _ adapt: @escaping @Sendable (_ request: Request) async throws -> Request
    ) -> Interceptor {
        Interceptor(adapt: { request, _ in try await adapt(request) })
    }

    /// An interceptor that decides retries with `retry`.
    /// - Parameter retry: Gets the failed attempt, returns whether and when to retry.
    /// - Returns: The interceptor.
    public static func retrier(
        _ retry: @escaping @Sendable (_ failure: FailedAttempt) async throws -> RetryDecision
    ) -> Interceptor {
        Interceptor(retry: retry)
    }

    /// Runs the adapting closure, if there is one.
    /// - Parameters:
    ///   - request: The request.
    ///   - attempt: The attempt about to start.
    /// - Returns: The request to send.
    /// - Throws: What the closure throws.
    public func adapt(_ request: Request, attempt: Int) async throws -> Request {
        guard let adaptation else { return request }
        return try await adaptation(request, attempt)
    }

    /// Runs the retry closure, if there is one.
    /// - Parameter failure: The failed attempt.
    /// - Returns: Its decision, or ``RetryDecision/doNotRetry``.
    /// - Throws: What the closure throws.
    public func retryDecision(for failure: FailedAttempt) async throws -> RetryDecision {
        guard let decision else { return .doNotRetry }
        return try await decision(failure)
    }
}
