import Foundation

/// Applies a credential to every request, refreshes it before it expires or when the server answers 401, and
/// coalesces refreshes: a hundred requests rejected at once cause one refresh, then each retries once with the new
/// credential.
///
/// ```swift
/// let auth = AuthenticationInterceptor(credential: .bearer(saved)) { _ in
///     let token = try await login()                      // your refresh
///     return .bearer(token.value, expiration: token.expiry)
/// }
/// let session = Session(configuration: .init(interceptors: [auth]))
/// ```
///
/// When a refresh fails, every request waiting for it fails with ``FerryError/Reason/authenticationFailed`` and the
/// refresh's error as ``FerryError/underlyingError``. Refreshing is bounded: a request is retried after a 401 at
/// most ``maximumRetries`` times (once by default), so a credential the server keeps rejecting ends in the 401,
/// never in a loop. A redirect to another origin never carries the credential (see ``RedirectPolicy``).
///
/// Put the interceptor before a ``RetryPolicy`` in the chain or after it: each answers only for its own failures.
public struct AuthenticationInterceptor: RequestInterceptor {
    /// How long before its expiration a credential is refreshed; 60 seconds by default.
    public var refreshWindow: Duration
    /// How many times one request is retried after a 401; 1 by default.
    public var maximumRetries: Int
    let store: CredentialStore
    private let authenticates: @Sendable (Request) -> Bool

    /// Creates an interceptor.
    /// - Parameters:
    ///   - credential: The credential to start with, or `nil` to refresh before the first request.
    ///   - refreshWindow: How long before its expiration a credential is refreshed.
    ///   - maximumRetries: How many times one request is retried after a 401.
    ///   - authenticates: Which requests get the credential; all by default. Restrict it to your API's host when
    ///     the session also talks to others.
    ///   - refresh: Gets the current credential (`nil` at first when none was given), returns a new one. Runs at most
    ///     once at a time, in a task of its own.
    public init(
        credential: AuthenticationCredential? = nil,
        refreshWindow: Duration = .seconds(60),
        maximumRetries: Int = 1,
        authenticates: @escaping @Sendable (_ request: Request) -> Bool = { _ in true },
        refresh: @escaping @Sendable (_ current: AuthenticationCredential?) async throws -> AuthenticationCredential
    ) {
        self.refreshWindow = refreshWindow
        self.maximumRetries = maximumRetries
        self.authenticates = authenticates
        self.store = CredentialStore(credential: credential, refresh: refresh)
    }

    /// The credential the next request would get, refreshed or not.
    public var credential: AuthenticationCredential? {
        get async { await store.current }
    }

    /// Sets `Authorization` to a valid credential, refreshing it first when it expires soon or was rejected.
    /// - Parameters:
    ///   - request: The request.
    ///   - attempt: The attempt about to start.
    /// - Returns: The request with the credential.
    /// - Throws: ``FerryError`` with ``FerryError/Reason/authenticationFailed`` when the refresh fails.
    public func adapt(_ request: Request, attempt: Int) async throws -> Request {
        guard authenticates(request) else { return request }
        let credential: AuthenticationCredential
        do {
            credential = try await store.credentialForAttempt(now: Date(), window: refreshWindow)
        } catch {
            throw FerryError(.authenticationFailed, request: request, underlyingError: error)
        }
        var request = request
        request.headers.update(name: "Authorization", value: credential.authorization)
        return request
    }

    /// Retries a 401 at once with a new credential (refreshed once for every request rejected with the same one).
    /// - Parameter failure: The failed attempt.
    /// - Returns: ``RetryDecision/retry(after:)`` with no wait for a 401 within ``maximumRetries``, else
    ///   ``RetryDecision/doNotRetry``.
    /// - Throws: ``FerryError`` with ``FerryError/Reason/authenticationFailed`` when the refresh fails.
    public func retryDecision(for failure: FailedAttempt) async throws -> RetryDecision {
        guard failure.response?.statusCode == 401, authenticates(failure.request) else { return .doNotRetry }
        let rejections = failure.previousErrors.count { $0.statusCode == 401 }
        guard rejections < maximumRetries else { return .doNotRetry }
        do {
            _ = try await store.credentialAfterRejection(of: failure.request.headers["Authorization"])
        } catch {
            throw FerryError(
                .authenticationFailed, request: failure.request, response: failure.response,
                underlyingError: error)
        }
        return .retry()
    }
}
