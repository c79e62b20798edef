import Foundation

/// The directives of `Cache-Control` fields (RFC 9111 §5.2), as one value.
///
/// Request and response directives share this type: the parse is the same, and the rules that read it know which
/// side they are looking at. Unknown directives (extensions, §5.2.3) are ignored, except `immutable` (RFC 8246) and
/// `stale-while-revalidate` / `stale-if-error` (RFC 5861), which are understood.
///
/// Tolerance, by design (each rule beside its field below):
/// - directive names are case-insensitive (§5.2), arguments may be tokens or quoted strings (§5.2);
/// - several `Cache-Control` lines read as one comma-separated list (RFC 9110 §5.3);
/// - a delta-seconds argument larger than 2^31 reads as 2147483648 (§1.2.2);
/// - a delta-seconds directive that is repeated with different arguments, or whose argument is not delta-seconds,
///   is invalid (§4.2.1): an invalid `max-age` or `s-maxage` reads as `0` (the response is stale, so it is
///   revalidated), an invalid `max-stale`, `min-fresh`, `stale-while-revalidate` or `stale-if-error` is ignored
///   (nothing stale is served because of it). Repeats with the same argument are harmless.
struct CacheControl: Sendable, Hashable {
    /// What a `max-stale` request directive accepts (§5.2.1.2).
    enum MaxStale: Sendable, Hashable {
        /// `max-stale` without an argument: a stale response of any staleness.
        case any
        /// `max-stale=N`: a response stale by at most `N` seconds.
        case seconds(Int)
    }

    /// `max-age` (§5.2.1.1 in a request, §5.2.2.1 in a response), in seconds; `0` when invalid.
    var maxAge: Int?
    /// `no-cache` (§5.2.1.4, §5.2.2.4), with or without field names.
    var noCache = false
    /// The lowercased field names of a qualified response `no-cache="a, b"` (§5.2.2.4); empty when unqualified.
    var noCacheFieldNames: [String] = []
    /// `no-store` (§5.2.1.5, §5.2.2.5).
    var noStore = false
    /// `no-transform` (§5.2.1.6, §5.2.2.6); parsed for completeness, a cache that does not transform needs nothing.
    var noTransform = false

    /// Request `max-stale` (§5.2.1.2); `nil` when absent or invalid.
    var maxStale: MaxStale?
    /// Request `min-fresh` (§5.2.1.3), in seconds; `nil` when absent or invalid.
    var minFresh: Int?
    /// Request `only-if-cached` (§5.2.1.7).
    var onlyIfCached = false

    /// Response `s-maxage` (§5.2.2.10), in seconds; `0` when invalid. Only a shared cache reads it.
    var sharedMaxAge: Int?
    /// Response `must-revalidate` (§5.2.2.2).
    var mustRevalidate = false
    /// Response `proxy-revalidate` (§5.2.2.8); only a shared cache reads it.
    var proxyRevalidate = false
    /// Response `must-understand` (§5.2.2.3).
    var mustUnderstand = false
    /// Response `public` (§5.2.2.9).
    var isPublic = false
    /// Response `private` (§5.2.2.7), with or without field names.
    var isPrivate = false
    /// The lowercased field names of a qualified `private="x"` (§5.2.2.7); empty when unqualified.
    var privateFieldNames: [String] = []
    /// Response `immutable` (RFC 8246 §2).
    var isImmutable = false
    /// `stale-while-revalidate` (RFC 5861 §3), in seconds; `nil` when absent or invalid.
    var staleWhileRevalidate: Int?
    /// `stale-if-error` (RFC 5861 §4), in a request or a response, in seconds; `nil` when absent or invalid.
    var staleIfError: Int?

    /// No directive at all.
    init() {}

    /// Reads one field value (or several lines already joined with commas).
    /// - Parameter value: The `Cache-Control` field value, e.g. `max-age=60, no-cache="Set-Cookie"`.
    init(parsing value: String) {
        guard !value.isEmpty else { return }
        // One pass over the directives: the flags are set as they come, the arguments of the directives that take
        // one are gathered (a repeated one must agree with itself, §4.2.1).
        var noCacheArguments: [String?] = []
        var privateArguments: [String?] = []
        var maxAgeArguments: [String?] = []
        var sharedMaxAgeArguments: [String?] = []
        var minFreshArguments: [String?] = []
        var staleWhileRevalidateArguments: [String?] = []
        var staleIfErrorArguments: [String?] = []
        var maxStaleArguments: [String?] = []
        for directive in CacheControlDirective.list(in: value) {
            switch directive.name {
            case "no-cache": noCacheArguments.append(directive.argument)
            case "private": privateArguments.append(directive.argument)
            case "max-age": maxAgeArguments.append(directive.argument)
            case "s-maxage": sharedMaxAgeArguments.append(directive.argument)
            case "min-fresh": minFreshArguments.append(directive.argument)
            case "stale-while-revalidate": staleWhileRevalidateArguments.append(directive.argument)
            case "stale-if-error": staleIfErrorArguments.append(directive.argument)
            case "max-stale": maxStaleArguments.append(directive.argument)
            case "no-store": noStore = true
            case "no-transform": noTransform = true
            case "only-if-cached": onlyIfCached = true
            case "must-revalidate": mustRevalidate = true
            case "proxy-revalidate": proxyRevalidate = true
            case "must-understand": mustUnderstand = true
            case "public": isPublic = true
            case "immutable": isImmutable = true
            default: break  // an extension this cache does not know (§5.2.3)
            }
        }

        noCache = !noCacheArguments.isEmpty
        noCacheFieldNames = noCacheArguments.flatMap { Self.fieldNames(in: $0) }
        isPrivate = !privateArguments.isEmpty
        privateFieldNames = privateArguments.flatMap { Self.fieldNames(in: $0) }

        // §4.2.1: invalid freshness information makes the response stale; §5.2.1.1: an invalid request max-age is
        // read the same way, the conservative choice (the request revalidates).
        maxAge = Self.deltaSeconds(maxAgeArguments, whenInvalid: 0)
        sharedMaxAge = Self.deltaSeconds(sharedMaxAgeArguments, whenInvalid: 0)
        minFresh = Self.deltaSeconds(minFreshArguments, whenInvalid: nil)
        staleWhileRevalidate = Self.deltaSeconds(staleWhileRevalidateArguments, whenInvalid: nil)
        staleIfError = Self.deltaSeconds(staleIfErrorArguments, whenInvalid: nil)

        if !maxStaleArguments.isEmpty {
            if maxStaleArguments.allSatisfy({ $0 == nil }) {
                maxStale = .any
            } else {
                maxStale = Self.deltaSeconds(maxStaleArguments, whenInvalid: nil).map { .seconds($0) }
            }
        }
    }

    /// The directives of a response: every `Cache-Control` line, read as one list (RFC 9110 §5.3).
    /// - Parameter responseHeaders: The response's header fields.
    init(responseHeaders: HTTPHeaders) {
        self.init(parsing: responseHeaders["Cache-Control"] ?? "")
    }

    /// The directives of a request: every `Cache-Control` line, or, when there is none, `Pragma: no-cache` read as
    /// `no-cache` (RFC 9111 §5.4: Pragma is ignored when `Cache-Control` is present).
    /// - Parameter requestHeaders: The request's header fields.
    init(requestHeaders: HTTPHeaders) {
        if let value = requestHeaders["Cache-Control"] {
            self.init(parsing: value)
        } else {
            self.init()
            let pragma = requestHeaders["Pragma"] ?? ""
            noCache = CacheControlDirective.list(in: pragma).contains { $0.name == "no-cache" }
        }
    }

    /// The largest delta-seconds value: 2^31 (RFC 9111 §1.2.2), what a larger one reads as.
    static let deltaSecondsLimit = 2_147_483_648

    /// Reads delta-seconds (§1.2.2): one or more digits, saturating at ``deltaSecondsLimit``.
    /// - Parameter text: The argument, already unquoted.
    /// - Returns: The seconds, or `nil` when `text` is not delta-seconds.
    static func deltaSeconds(_ text: String) -> Int? {
        guard !text.isEmpty else { return nil }
        var seconds = 0
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            seconds = min(seconds * 10 + Int(byte - 0x30), deltaSecondsLimit)
        }
        return seconds
    }

    /// The value of a delta-seconds directive that appeared once per element of `arguments` (§4.2.1).
    private static func deltaSeconds(_ arguments: [String?], whenInvalid invalid: Int?) -> Int? {
        guard let first = arguments.first else { return nil }
        guard let value = first.flatMap(deltaSeconds) else { return invalid }
        // Repeated: harmless when every repeat says the same, invalid when they disagree.
        return arguments.allSatisfy { $0.flatMap(deltaSeconds) == value } ? value : invalid
    }

    /// The lowercased field names of a `no-cache="…"` or `private="…"` argument.
    private static func fieldNames(in argument: String?) -> [String] {
        guard let argument else { return [] }
        return argument.split(separator: ",").compactMap {
            let name = $0.trimmingOWS.lowercased()
            return name.isEmpty ? nil : name
        }
    }
}
