import Foundation

/// What a cache does with the answer to its own conditional request (RFC 9111 §4.3.3).
enum RevalidationOutcome: Sendable, Hashable {
    /// A 304 validated the stored response: serve it, freshened (``NotModifiedUpdate/freshen``), and store it back.
    /// Other stored responses the 304 selects (``NotModifiedUpdate/selection(for:among:)``) are freshened too.
    case useStored(StoredResponse)
    /// The origin failed and `stale-if-error` lets the stored response stand in (RFC 5861 §4): serve it as it is.
    case useStoredOnError
    /// A full response (or an error that nothing excuses): forward it; store it in place of the old one if
    /// ``Storability`` allows.
    case useResponse
    /// A 304 that names another representation (a validator that does not match): it cannot answer the request,
    /// so the request is sent again without the cache's validators.
    case repeatUnconditionally
    /// The origin could not be reached and nothing may stand in: the request fails with the transport's error.
    /// (A cache that is disconnected MAY serve a stale response, §4.2.4; this one does so only with
    /// `stale-if-error`.)
    case fail

    /// Decides what to do with the answer to a revalidation (§4.3.3).
    /// - Parameters:
    ///   - response: The response head, or `nil` when the origin could not be reached.
    ///   - stored: The stored response that was being revalidated.
    ///   - request: The client's request.
    ///   - mode: Whose cache it is.
    ///   - requestTime: When the conditional request was sent.
    ///   - now: When the response (or the failure) arrived.
    /// - Returns: The outcome.
    static func decide(
        response: HTTPResponse?, revalidating stored: StoredResponse, request: Request, mode: CacheMode,
        requestTime: Date, now: Date
    ) -> RevalidationOutcome {
        let requestDirectives = CacheControl(requestHeaders: request.headers)
        let usableOnError = StaleIfError.allowsServing(
            stored, requestDirectives: requestDirectives, mode: mode, now: now)
        guard let response else { return usableOnError ? .useStoredOnError : .fail }
        if response.statusCode == 304 {
            // A 304 to the cache's own conditions, made from this stored response's validators, validates this
            // response (§4.3.3) unless it names another representation: a validator of its own that §4.3.4's
            // selection does not match to this one. One without any validator (servers omit `ETag` from 304s despite
            // RFC 9110 §15.4.5) is taken as this response's, as browsers' caches take it; §4.3.4's rule for that
            // case, which selects only a stored response without validators, is for choosing among several.
            // A 304 to the client's own conditions speaks for what the client holds: it validates the stored
            // response only when §4.3.4 selects it, and otherwise is the client's answer.
            let ownConditions = ConditionalRequest.hasPreconditions(request.headers)
            let selected = NotModifiedUpdate.selection(for: response, among: [stored]) == [0]
            guard selected || (!ownConditions && !NotModifiedUpdate.hasValidator(response.headers)) else {
                return ownConditions ? .useResponse : .repeatUnconditionally
            }
            return .useStored(
                NotModifiedUpdate.freshen(stored, with: response, requestTime: requestTime, responseTime: now))
        }
        // §4.3.3: a 5xx may be treated as if the server had not answered, then stale-if-error applies.
        if StaleIfError.errorStatuses.contains(response.statusCode), usableOnError { return .useStoredOnError }
        return .useResponse
    }
}
