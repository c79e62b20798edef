import Foundation

/// What a 304 (Not Modified) does to the stored responses it validates (RFC 9111 §4.3.3, §4.3.4).
enum NotModifiedUpdate {
    /// The stored responses a 304 identifies for update (§4.3.4), as indices into `stored`:
    /// 1. a strong `ETag` in the 304: every stored response with the same strong tag, or none when none has it;
    /// 2. else a weak `ETag`: the most recent stored response whose tag matches weakly;
    /// 3. else a `Last-Modified` (a validator that is at best weak here): the most recent stored response with the
    ///    same `Last-Modified` instant;
    /// 4. else no validator at all: the only stored response, when there is exactly one and it has no validator
    ///    either.
    /// - Parameters:
    ///   - notModified: The 304 response head.
    ///   - stored: The stored responses for the request (same ``CacheKey``).
    /// - Returns: The indices of the responses to update, possibly none.
    static func selection(for notModified: HTTPResponse, among stored: [StoredResponse]) -> [Int] {
        let headers = notModified.headers
        if let tag = EntityTag(headers: headers) {
            if !tag.isWeak {
                return stored.indices.filter {
                    EntityTag(headers: stored[$0].response.headers)?.matchesStrongly(tag) == true
                }
            }
            let matching = stored.indices.filter {
                EntityTag(headers: stored[$0].response.headers)?.matchesWeakly(tag) == true
            }
            return mostRecent(of: matching, in: stored)
        }
        if let lastModified = headers["Last-Modified"].flatMap(HTTPDate.parse) {
            let matching = stored.indices.filter {
                stored[$0].response.headers["Last-Modified"].flatMap(HTTPDate.parse) == lastModified
            }
            return mostRecent(of: matching, in: stored)
        }
        guard stored.count == 1, !hasValidator(stored[0].response.headers) else { return [] }
        return [0]
    }

    /// `stored` freshened by a 304 (§4.3.4): its header fields updated with the 304's (§3.2,
    /// ``StoredHeaders/updating(_:with:)``), and its times replaced by those of the validation exchange, so that its
    /// age counts from the 304 (whose `Date` and `Age` it now has). The status, URL and body stay.
    /// - Parameters:
    ///   - stored: A stored response the 304 identified.
    ///   - notModified: The 304 response head.
    ///   - requestTime: When the conditional request was sent.
    ///   - responseTime: When the 304 was received.
    /// - Returns: The updated stored response.
    static func freshen(
        _ stored: StoredResponse, with notModified: HTTPResponse, requestTime: Date, responseTime: Date
    ) -> StoredResponse {
        var updated = stored
        updated.response.headers = StoredHeaders.updating(stored.response.headers, with: notModified.headers)
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    /// Whether a response has a validator: an `ETag` or a `Last-Modified` (RFC 9110 §8.8).
    /// - Parameter headers: The response's header fields.
    static func hasValidator(_ headers: HTTPHeaders) -> Bool {
        headers.contains("ETag") || headers.contains("Last-Modified")
    }

    private static func mostRecent(of indices: [Int], in stored: [StoredResponse]) -> [Int] {
        let latest = indices.max {
            (stored[$0].dateValue, stored[$0].responseTime) < (stored[$1].dateValue, stored[$1].responseTime)
        }
        return latest.map { [$0] } ?? []
    }
}
