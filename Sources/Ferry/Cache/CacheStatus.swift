/// Where a response came from, when the session has an ``HTTPCache`` (``Metrics/cacheStatus``).
public enum CacheStatus: Sendable, Hashable {
    /// Nothing stored could answer: the response came from the server (and was stored if it may be).
    case miss
    /// A fresh stored response answered; the server was not contacted.
    case hit
    /// A stale stored response answered without asking the server, as the request allowed (`max-stale`) or the
    /// response did (`stale-while-revalidate`), or after the server failed (`stale-if-error`).
    case staleHit
    /// The server confirmed a stored response with `304 Not Modified`; it answered, with the 304's header fields
    /// merged in.
    case revalidated
    /// The request allowed no contact with the server (``CachePolicy/onlyIfCached``, `only-if-cached`) and nothing
    /// stored could answer: the answer is a `504 Gateway Timeout` made by the cache.
    case unsatisfiable
}
