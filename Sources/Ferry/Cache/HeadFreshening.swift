import Foundation

/// What a `200` response to a `HEAD` request does to the stored `GET` responses it could have been chosen for
/// (RFC 9111 §4.3.5).
enum HeadFreshening: Sendable, Hashable {
    /// Update the stored response with this head (same rules as a 304, ``NotModifiedUpdate/freshen``).
    case update(StoredResponse)
    /// The representation changed: drop the stored response. §4.3.5 asks only that it be considered stale; removing
    /// it is stricter and as correct (the next request is a miss instead of a revalidation).
    case invalidate
    /// The `HEAD` response says nothing about the stored one (its status is not 200).
    case unchanged

    /// Decides what a `HEAD` response does to `stored` (§4.3.5).
    ///
    /// Each validator the `HEAD` response has (`ETag`, `Last-Modified`) must equal the stored one, and its
    /// `Content-Length`, when it has one, must equal the stored one; otherwise the stored response is invalidated.
    /// (§4.3.5 reads "matching values for any received validator fields"; every received one must match here.)
    /// - Parameters:
    ///   - stored: A stored `GET` response whose `Vary` the `HEAD` request matches.
    ///   - head: The `HEAD` response head.
    ///   - requestTime: When the `HEAD` request was sent.
    ///   - responseTime: When its response was received.
    /// - Returns: The decision.
    static func decide(
        _ stored: StoredResponse, head: HTTPResponse, requestTime: Date, responseTime: Date
    ) -> HeadFreshening {
        guard head.statusCode == 200 else { return .unchanged }
        for name in ["ETag", "Last-Modified", "Content-Length"] where head.headers.contains(name) {
            guard let storedValue = stored.response.headers[name],
                normalised(storedValue) == normalised(head.headers[name] ?? "")
            else { return .invalidate }
        }
        return .update(
            NotModifiedUpdate.freshen(stored, with: head, requestTime: requestTime, responseTime: responseTime))
    }

    private static func normalised(_ value: String) -> String {
        value.trimmingOWS
    }
}
