import Foundation

/// The validators a cache adds to a request to revalidate a stored response (RFC 9111 §4.3.1).
enum ConditionalRequest {
    /// The precondition fields of RFC 9110 §13.1; a request with any of them is the client's own conditional
    /// request, and the cache adds nothing to it.
    static let preconditionFields = [
        "If-Match", "If-None-Match", "If-Modified-Since", "If-Unmodified-Since", "If-Range",
    ]

    /// Whether a request carries a precondition of its own (``preconditionFields``).
    /// - Parameter requestHeaders: The request's header fields.
    static func hasPreconditions(_ requestHeaders: HTTPHeaders) -> Bool {
        preconditionFields.contains(where: requestHeaders.contains)
    }

    /// The header fields to send to revalidate `stored`: the request's own, plus
    /// - `If-None-Match` with the stored `ETag`, strong or weak (§4.3.1: weak comparison applies to it);
    /// - `If-Modified-Since` with the stored `Last-Modified`, when it is a valid HTTP-date, sent as received.
    ///
    /// Both are sent when both exist: RFC 9110 §13.1.3 has a server ignore `If-Modified-Since` when
    /// `If-None-Match` is present, and a server that does not know entity tags still gets a validator. Without
    /// `Last-Modified`, the `Date` is not used in its place. When the request already has a precondition field
    /// (``preconditionFields``), it goes as it is: the client asked its own question.
    /// - Parameters:
    ///   - requestHeaders: The new request's header fields.
    ///   - stored: The stored response to revalidate.
    /// - Returns: The header fields of the conditional request.
    static func headers(for requestHeaders: HTTPHeaders, revalidating stored: StoredResponse) -> HTTPHeaders {
        guard !hasPreconditions(requestHeaders) else { return requestHeaders }
        var headers = requestHeaders
        let storedHeaders = stored.response.headers
        if let etag = EntityTag(headers: storedHeaders) {
            headers.update(name: "If-None-Match", value: (etag.isWeak ? "W/" : "") + etag.opaqueTag)
        }
        if let lastModified = storedHeaders["Last-Modified"], HTTPDate.parse(lastModified) != nil {
            headers.update(name: "If-Modified-Since", value: lastModified)
        }
        return headers
    }
}
