import Foundation

/// Whether a cache may store a response (RFC 9111 §3), and if not, the first rule that forbids it.
enum Storability: Sendable, Hashable {
    /// The response may be stored.
    case storable
    /// The response must not be stored, for `reason`.
    case notStorable(Reason)

    /// Why a response is not stored.
    enum Reason: Sendable, Hashable {
        /// The request method is not `GET` (§3: "the request method is understood by the cache"; this cache stores
        /// `GET` only. A `HEAD` response only freshens a stored `GET` one, ``HeadFreshening``, §4.3.5).
        case method
        /// The request had `Range`: this cache does not store partial content, nor a response to a range request.
        case rangeRequest
        /// The status is informational (1xx), not final (§3).
        case statusNotFinal
        /// 206: partial content is not stored (§3.3 allows it; out of scope here).
        case partialContent
        /// 304: it updates stored responses (``NotModifiedUpdate``) but is not stored itself.
        case notModified
        /// `must-understand` with a status this cache does not know (§3, §5.2.2.3).
        case statusNotUnderstood
        /// `no-store` in the request (§5.2.1.5).
        case requestNoStore
        /// `no-store` in the response (§5.2.2.5), without `must-understand` on a known status.
        case responseNoStore
        /// `private` in a shared cache (§5.2.2.7). A qualified `private="x"` also counts: storing the response
        /// without the named fields is allowed, but not done here.
        case privateInSharedCache
        /// `Authorization` in the request of a shared cache, without `must-revalidate`, `public` or `s-maxage` (§3.5).
        case authorizationInSharedCache
        /// `Vary: *`: it could never be reused (§4.1), so it is not kept.
        case varyAll
        /// Nothing makes it cacheable: no `Expires`, `max-age`, `s-maxage` (shared), `public`, `private` (private
        /// cache), and a status that is not heuristically cacheable (§3).
        case notCacheable
    }

    /// The status codes this cache understands (§3 with `must-understand`): the ones RFC 9110 §15 defines.
    static let understoodStatuses: Set<Int> = Set(200...206).union(300...305).union([307, 308])
        .union(400...417).union([421, 422, 426]).union(500...505)

    /// Decides whether `response`, the answer to `request`, may be stored (§3).
    /// - Parameters:
    ///   - request: The request, as sent.
    ///   - response: The final response head.
    ///   - mode: Whose cache it is.
    /// - Returns: ``storable``, or the first reason not to.
    static func decide(request: Request, response: HTTPResponse, mode: CacheMode) -> Storability {
        let requestDirectives = CacheControl(requestHeaders: request.headers)
        let directives = CacheControl(responseHeaders: response.headers)
        let status = response.statusCode

        // §3: a method the cache understands and defines as cacheable; GET only here.
        guard request.method == .get else { return .notStorable(.method) }
        guard !request.headers.contains("Range") else { return .notStorable(.rangeRequest) }
        // §3: a final status.
        guard status >= 200 else { return .notStorable(.statusNotFinal) }
        guard status != 206 else { return .notStorable(.partialContent) }
        guard status != 304 else { return .notStorable(.notModified) }
        // §5.2.2.3: must-understand limits storing to the statuses the cache understands...
        let understood = understoodStatuses.contains(status)
        if directives.mustUnderstand, !understood { return .notStorable(.statusNotUnderstood) }
        // §5.2.1.5: no-store in the request.
        if requestDirectives.noStore { return .notStorable(.requestNoStore) }
        // §5.2.2.5, §5.2.2.3: ...and then a cache that understands the status ignores no-store.
        if directives.noStore, !(directives.mustUnderstand && understood) { return .notStorable(.responseNoStore) }
        // §5.2.2.7: a shared cache does not store a private response.
        if mode == .shared, directives.isPrivate { return .notStorable(.privateInSharedCache) }
        // §3.5: Authorization in a shared cache only with a directive that allows it.
        if mode == .shared, request.headers.contains("Authorization"),
            !(directives.mustRevalidate || directives.isPublic || directives.sharedMaxAge != nil)
        {
            return .notStorable(.authorizationInSharedCache)
        }
        // §4.1: Vary: * never matches a later request.
        if VaryKey.nominatedFields(response.headers).contains("*") { return .notStorable(.varyAll) }
        // §3: at least one thing that makes it cacheable.
        let cacheable =
            response.headers.contains("Expires") || directives.maxAge != nil
            || (mode == .shared && directives.sharedMaxAge != nil)
            || directives.isPublic
            || (mode == .private && directives.isPrivate)
            || FreshnessLifetime.heuristicallyCacheableStatuses.contains(status)
        return cacheable ? .storable : .notStorable(.notCacheable)
    }
}
