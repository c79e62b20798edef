/// How one request uses the session's ``HTTPCache`` (``Request/cachePolicy``).
///
/// The request's own `Cache-Control` (`no-cache`, `no-store`, `max-age`, `max-stale`, `min-fresh`, `only-if-cached`)
/// and `Pragma: no-cache` apply under every policy, as RFC 9111 says; a policy is a shorter way to ask for the common
/// cases, and it does not change what is sent to the server.
public enum CachePolicy: Sendable, Hashable {
    /// RFC 9111's rules: a fresh stored response answers, a stale one is revalidated, a new response is stored when
    /// it may be.
    case useCache
    /// Never answer from the cache without asking the server: a stored response with a validator is revalidated
    /// (a conditional request, served from the cache on `304 Not Modified`), one without is fetched again.
    case revalidate
    /// Ignore stored responses and fetch the resource again, unconditionally; the new response is stored.
    case reload
    /// Never contact the server: a stored response that may answer, or `504 Gateway Timeout` (RFC 9111 §5.2.1.7).
    case onlyIfCached
    /// Use stored responses as ``useCache`` does, but never store this request's response.
    case doNotStore
}
