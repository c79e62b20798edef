import Foundation

/// What a cache does with a request, given the responses it holds under the request's key (RFC 9111 §4).
enum CacheLookup: Sendable, Hashable {
    /// Serve `stored`, fresh, with `Age: age` (§4.2, §5.1).
    case fresh(StoredResponse, age: String)
    /// Serve `stored`, stale but allowed: by the request's `max-stale` (§5.2.1.2), or by `stale-while-revalidate`
    /// (RFC 5861 §3), in which case `revalidateInBackground` is `true` and the cache revalidates it without making
    /// the client wait.
    case stale(StoredResponse, age: String, revalidateInBackground: Bool)
    /// Send the request with `headers` (the validators added, ``ConditionalRequest``) to validate `stored` (§4.3).
    /// `usableOnError` says whether `stored` may be served if the origin cannot be reached or answers 500, 502, 503
    /// or 504 (`stale-if-error`, RFC 5861 §4; see ``StaleIfError``), judged at the time of the lookup;
    /// ``RevalidationOutcome`` judges it again when the answer or the failure arrives.
    case revalidate(StoredResponse, headers: HTTPHeaders, usableOnError: Bool)
    /// Nothing stored can answer: send the request as it is.
    case miss
    /// `only-if-cached` and nothing stored may answer: reply 504 (Gateway Timeout) without sending (§5.2.1.7).
    case gatewayTimeout

    /// Decides how to answer `request` (§4).
    ///
    /// The rules, in order:
    /// 1. Only `GET` is answered from the cache; other methods are a ``miss``.
    /// 2. Candidates are the stored responses whose `Vary` matches (§4.1); of several, the most recent by `Date`
    ///    (then by the time received) is used. None: ``miss``, or ``gatewayTimeout`` with `only-if-cached`.
    /// 3. Response `no-cache`, with or without field names, always revalidates (§5.2.2.4: a qualified `no-cache`
    ///    could reuse the response without the named fields; this cache takes the simplest correct reading).
    /// 4. A fresh `immutable` response (RFC 8246) is served even when the request asks for a reload (request
    ///    `no-cache` or `max-age`): that is what `immutable` is for. `min-fresh` still applies.
    /// 5. Request `no-cache` (or `Pragma: no-cache`, §5.4) revalidates (§5.2.1.4); request `max-age=N` revalidates a
    ///    response older than N (§5.2.1.1); `min-fresh=N` revalidates a response fresh for less than N more seconds
    ///    (§5.2.1.3).
    /// 6. A fresh response is served (§4.2).
    /// 7. A stale one is never served when `must-revalidate` (§5.2.2.2), or in a shared cache `proxy-revalidate` or
    ///    `s-maxage` (§5.2.2.8, §5.2.2.10), is present (§4.2.4). Otherwise `max-stale` (§5.2.1.2) serves it, then
    ///    `stale-while-revalidate` serves it and revalidates in the background, and otherwise it is revalidated.
    /// 8. With `only-if-cached`, anything that would contact the origin is ``gatewayTimeout`` instead (§5.2.1.7).
    /// - Parameters:
    ///   - request: The new request.
    ///   - candidates: The stored responses under the request's ``CacheKey``.
    ///   - mode: Whose cache it is.
    ///   - now: The cache's current time.
    /// - Returns: The decision.
    static func decide(request: Request, candidates: [StoredResponse], mode: CacheMode, now: Date) -> CacheLookup {
        guard request.method == .get else { return .miss }
        let requestDirectives = CacheControl(requestHeaders: request.headers)
        let matching = candidates.filter { VaryKey.matches($0, requestHeaders: request.headers) }
        guard let stored = mostRecent(matching) else {
            return requestDirectives.onlyIfCached ? .gatewayTimeout : .miss
        }
        let decision = decide(
            request: request, stored: stored, requestDirectives: requestDirectives, mode: mode, now: now)
        if requestDirectives.onlyIfCached, case .revalidate = decision { return .gatewayTimeout }
        return decision
    }

    /// The most recent of `responses` (§4.1): the latest `Date`, then the latest time received.
    /// - Parameter responses: Stored responses.
    /// - Returns: The most recent one, or `nil` when there is none.
    static func mostRecent(_ responses: [StoredResponse]) -> StoredResponse? {
        responses.max { ($0.dateValue, $0.responseTime) < ($1.dateValue, $1.responseTime) }
    }

    private static func decide(
        request: Request, stored: StoredResponse, requestDirectives: CacheControl, mode: CacheMode, now: Date
    ) -> CacheLookup {
        let directives = stored.cacheControl
        let lifetime = stored.freshnessLifetime(mode: mode).seconds
        let age = stored.age(now: now)
        let isFresh = lifetime > age.currentAge
        // Made only when the answer is to revalidate: a fresh hit needs neither the validators nor stale-if-error.
        var revalidate: CacheLookup {
            .revalidate(
                stored, headers: ConditionalRequest.headers(for: request.headers, revalidating: stored),
                usableOnError: StaleIfError.allowsServing(
                    stored, requestDirectives: requestDirectives, mode: mode, now: now))
        }

        // §5.2.2.4: a response no-cache (qualified or not) is never reused without validation.
        if directives.noCache { return revalidate }
        // RFC 8246 §2: a fresh immutable response is not revalidated on a reload.
        let reloadIsIgnored = isFresh && directives.isImmutable
        if !reloadIsIgnored {
            // §5.2.1.4: request no-cache; §5.2.1.1: request max-age.
            if requestDirectives.noCache { return revalidate }
            if let maxAge = requestDirectives.maxAge, age.currentAge > TimeInterval(maxAge) { return revalidate }
        }
        // §5.2.1.3: min-fresh asks for at least that much freshness left.
        if let minFresh = requestDirectives.minFresh, lifetime - age.currentAge < TimeInterval(minFresh) {
            return revalidate
        }
        if isFresh { return .fresh(stored, age: age.headerValue) }

        // Stale. §4.2.4: never served when a directive forbids it.
        if forbidsServingStale(directives, mode: mode) { return revalidate }
        let staleness = age.currentAge - lifetime
        switch requestDirectives.maxStale {
        case .any:
            return .stale(stored, age: age.headerValue, revalidateInBackground: false)
        case .seconds(let seconds) where staleness <= TimeInterval(seconds):
            return .stale(stored, age: age.headerValue, revalidateInBackground: false)
        default:
            break
        }
        // RFC 5861 §3: served while a background revalidation runs. Not with only-if-cached, which must not
        // contact the origin (§5.2.1.7).
        if let window = directives.staleWhileRevalidate, staleness <= TimeInterval(window),
            !requestDirectives.onlyIfCached
        {
            return .stale(stored, age: age.headerValue, revalidateInBackground: true)
        }
        return revalidate
    }

    /// Whether a response's directives forbid serving it stale (§4.2.4): `must-revalidate` (§5.2.2.2), and in a
    /// shared cache `proxy-revalidate` (§5.2.2.8) and `s-maxage` (§5.2.2.10, which implies `proxy-revalidate`).
    /// - Parameters:
    ///   - directives: The response's directives.
    ///   - mode: Whose cache it is.
    /// - Returns: `true` when a stale response must be revalidated.
    static func forbidsServingStale(_ directives: CacheControl, mode: CacheMode) -> Bool {
        directives.mustRevalidate || directives.noCache
            || (mode == .shared && (directives.proxyRevalidate || directives.sharedMaxAge != nil))
    }
}
