import Foundation

/// HAR 1.2 (HTTP Archive) export of finished requests, to open a failure in a browser's developer tools or any HAR
/// viewer: ``DataResponse/har(redacting:includingBody:)`` (every task's response is a ``DataResponse``: a download's
/// and a stream's have no body in memory to include) and ``Session/har(of:includingBody:)``.
///
/// Each request Ferry handed to the transport is one entry: every attempt, and every redirect an attempt followed
/// (``Timeline/attempts``). Entry timings come from Ferry's own clock: `blocked` is the wait for a slot under the
/// session's limits, `send` is 0 (sending is counted in `wait`, which ends with the response head), `receive` runs
/// to the end of the body, and `dns`, `connect` and `ssl` are -1 (not measured). Header and cookie values of the
/// redacted names are replaced by `***`, as is a password in a URL; `headersSize` is -1 (Ferry never sees the raw
/// head); a response body is included only when asked, for the final request.
///
/// With the session's ``HTTPCache``, the final entry's `cache` says what it did (``Metrics/cacheStatus``): its
/// `comment` names the status, and when a stored response answered (a hit, a stale hit, a revalidation)
/// `afterRequest` gives that response's `eTag` (empty without one) and `lastAccess`, the moment the cache decided
/// (``Timeline/cacheDecided``); `hitCount` and `expires` are left out (Ferry counts no hits, and a stored response's
/// expiry depends on the request that asks). An answer the cache gave in place of the server's (a hit, a stale hit,
/// the cache's `504` for `only-if-cached`) is an entry of its own, after any attempt: the request as sent, the
/// stored response, `blocked` -1, `wait` until the cache decided, `receive` to the end. Without a cache, and on
/// every other entry, `cache` is `{}`.
public enum HAR {
    /// The header names whose values an export hides by default: ``Request/sensitiveHeaderNames``
    /// (`Authorization`, `Cookie`, `Proxy-Authorization`) and `Set-Cookie`.
    public static let sensitiveHeaderNames: Set<String> = Request.sensitiveHeaderNames.union(["Set-Cookie"])

    /// The replacement of a redacted value.
    static let redactedValue = "***"

    /// Encodes the document of a finished request.
    /// - Parameters:
    ///   - response: The finished request: its timeline's attempts become the entries, with one more for an answer
    ///     the cache gave in place of the server's; its ``Metrics/cacheStatus`` fills the final entry's `cache`.
    ///   - body: The final response's body, when it is to be included.
    ///   - redacted: The header names whose values are hidden.
    /// - Returns: The JSON document.
    static func encode<Value>(
        _ response: DataResponse<Value>, body: Data?, redacting redacted: Set<String>
    ) -> Data {
        let builder = Builder(
            timeline: response.timeline, body: body, redacted: Set(redacted.map { $0.lowercased() }),
            cacheStatus: response.metrics.cacheStatus, request: response.request, response: response.response)
        let document = Document(log: Log(entries: builder.entries()))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and finite numbers only: encoding cannot fail.
        return (try? encoder.encode(document)) ?? Data()
    }
}

extension DataResponse {
    /// This response as a HAR 1.2 document (JSON): one entry per attempt and per redirect, with its timings.
    ///
    /// ```swift
    /// let response = await session.get("https://api.example.com/users").response
    /// try response.har().write(to: URL(fileURLWithPath: "failure.har"))
    /// ```
    /// ``Session/har(of:includingBody:)`` hides the session's ``Session/Configuration/redactedHeaderNames`` too.
    /// - Parameters:
    ///   - redacted: The header names (compared case-insensitively) whose values, cookies included, are replaced
    ///     by `***`; ``HAR/sensitiveHeaderNames`` by default.
    ///   - includingBody: Whether the final response's body goes into the document (as text, or in base64 when it
    ///     is not UTF-8); `false` by default.
    /// - Returns: The document, UTF-8 JSON.
    public func har(redacting redacted: Set<String> = HAR.sensitiveHeaderNames, includingBody: Bool = false) -> Data {
        HAR.encode(self, body: includingBody ? data : nil, redacting: redacted)
    }
}

extension Session {
    /// `response` as a HAR 1.2 document (JSON), hiding this session's ``Configuration/redactedHeaderNames`` and
    /// `Set-Cookie`.
    /// - Parameters:
    ///   - response: A response of this session.
    ///   - includingBody: Whether the final response's body goes into the document; `false` by default.
    /// - Returns: The document, UTF-8 JSON.
    public nonisolated func har<Value>(of response: DataResponse<Value>, includingBody: Bool = false) -> Data {
        response.har(redacting: configuration.redactedHeaderNames.union(["Set-Cookie"]), includingBody: includingBody)
    }
}
