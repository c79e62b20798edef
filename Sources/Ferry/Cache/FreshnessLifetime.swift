import Foundation

/// How long a response stays fresh after it was generated (RFC 9111 §4.2.1), and which rule said so.
struct FreshnessLifetime: Sendable, Hashable {
    /// Where a lifetime came from, in the order §4.2.1 tries them.
    enum Source: Sendable, Hashable {
        /// `s-maxage`, in a shared cache (§5.2.2.10).
        case sharedMaxAge
        /// `max-age` (§5.2.2.1).
        case maxAge
        /// `Expires` minus `Date` (§5.3).
        case expires
        /// A heuristic: a fraction of the time since `Last-Modified` (§4.2.2).
        case heuristic
        /// Nothing: the response is stale as soon as it is received.
        case none
    }

    /// The lifetime, in seconds; never negative.
    var seconds: TimeInterval
    /// The rule it came from.
    var source: Source

    /// Creates a lifetime.
    /// - Parameters:
    ///   - seconds: The lifetime in seconds.
    ///   - source: The rule it came from.
    init(seconds: TimeInterval, source: Source) {
        self.seconds = seconds
        self.source = source
    }

    /// The share of the time since `Last-Modified` a heuristic lifetime is (§4.2.2 suggests 10%).
    static let heuristicFraction = 0.1
    /// The longest heuristic lifetime: one day. §4.2.2 sets no cap; a day keeps a resource unchanged for years from
    /// being reused for months without a check.
    static let heuristicLimit: TimeInterval = 86_400

    /// The status codes that are heuristically cacheable by default (RFC 9110 §15.1, listed in RFC 9111 §4.2.2).
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The lifetime of `response` (§4.2.1): the first of `s-maxage` (shared cache only), `max-age`, `Expires` minus
    /// `Date`, and a heuristic.
    /// - Parameters:
    ///   - response: The response head.
    ///   - dateValue: Its `Date`, or the time it was received when it has none (``StoredResponse/dateValue``).
    ///   - mode: Whose cache it is.
    init(response: HTTPResponse, dateValue: Date, mode: CacheMode) {
        self.init(
            response: response, directives: CacheControl(responseHeaders: response.headers), dateValue: dateValue,
            mode: mode)
    }

    /// The lifetime of `response`, whose `Cache-Control` was read already as `directives`.
    init(response: HTTPResponse, directives: CacheControl, dateValue: Date, mode: CacheMode) {
        // §4.2.1: s-maxage only in a shared cache; max-age beats Expires (§5.3).
        if mode == .shared, let sharedMaxAge = directives.sharedMaxAge {
            self.init(seconds: TimeInterval(sharedMaxAge), source: .sharedMaxAge)
        } else if let maxAge = directives.maxAge {
            self.init(seconds: TimeInterval(maxAge), source: .maxAge)
        } else if let expires = Self.expires(response.headers) {
            // §5.3: an invalid Expires, such as "0", is a time in the past: already expired.
            let seconds = expires.map { $0.timeIntervalSince(dateValue) } ?? 0
            self.init(seconds: max(0, seconds), source: .expires)
        } else if Self.allowsHeuristic(response, directives: directives, mode: mode) {
            self.init(seconds: Self.heuristic(response.headers, dateValue: dateValue), source: .heuristic)
        } else {
            self.init(seconds: 0, source: .none)
        }
    }

    /// Whether a response names an explicit expiration time (§4.2.1): `s-maxage` (shared), `max-age` or `Expires`.
    /// A heuristic is never used when one is present (§4.2.2).
    var isExplicit: Bool { source == .sharedMaxAge || source == .maxAge || source == .expires }

    /// The `Expires` fields: `nil` when there is none; `.some(nil)` when the value is not one valid HTTP-date
    /// (invalid, or several fields that disagree, §4.2.1: "considered stale"); else the date.
    private static func expires(_ headers: HTTPHeaders) -> Date?? {
        let values = headers.values(for: "Expires")
        guard let first = values.first else { return nil }
        guard values.allSatisfy({ $0 == first }) else { return .some(nil) }
        return .some(HTTPDate.parse(first.trimmingOWS))
    }

    /// Whether a heuristic may be used (§4.2.2): for a status that is heuristically cacheable by default, or for a
    /// response marked explicitly cacheable: `public`, or `private` in a private cache.
    private static func allowsHeuristic(_ response: HTTPResponse, directives: CacheControl, mode: CacheMode) -> Bool {
        heuristicallyCacheableStatuses.contains(response.statusCode) || directives.isPublic
            || (directives.isPrivate && mode == .private)
    }

    /// 10% of the time between `Last-Modified` and `Date`, at most ``heuristicLimit``; `0` without a valid
    /// `Last-Modified`, or with one later than `Date`.
    private static func heuristic(_ headers: HTTPHeaders, dateValue: Date) -> TimeInterval {
        guard let text = headers["Last-Modified"], let lastModified = HTTPDate.parse(text) else { return 0 }
        let sinceModified = dateValue.timeIntervalSince(lastModified)
        guard sinceModified > 0 else { return 0 }
        return min(sinceModified * heuristicFraction, heuristicLimit)
    }
}
