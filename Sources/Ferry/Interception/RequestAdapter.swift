/// Changes a request before each attempt: adds a header, signs it, applies a credential.
///
/// Adapters run in the task that awaits the request, so its task-local values (a trace context) and its
/// cancellation reach them. Every attempt starts again from the request as the session prepared it, so what an
/// adapter adds never piles up over retries. Redirect hops are not adapted again: a credential an adapter added is
/// removed when a redirect leaves the origin, and stays removed.
public protocol RequestAdapter: Sendable {
    /// Returns the request to send for this attempt.
    /// - Parameters:
    ///   - request: The request with the session's defaults applied, as changed by the adapters before this one.
    ///   - attempt: The attempt about to start: 1 for the first, 2 for the first retry, ….
    /// - Returns: The request to send.
    /// - Throws: Any error, which fails the request: a ``FerryError`` as it is, anything else as
    ///   ``FerryError/Reason/interceptorFailed`` with the error as ``FerryError/underlyingError``.
    func adapt(_ request: Request, attempt: Int) async throws -> Request
}
