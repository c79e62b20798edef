import Foundation

/// When a stale response may stand in for an origin that failed (`stale-if-error`, RFC 5861 §4).
enum StaleIfError {
    /// The statuses RFC 5861 §4 counts as an error: 500, 502, 503 and 504.
    static let errorStatuses: Set<Int> = [500, 502, 503, 504]

    /// Whether `stored` may be served at `now` because the origin failed (could not be reached, or answered one of
    /// ``errorStatuses``).
    ///
    /// The window is the larger of the response's and the request's `stale-if-error`: either party may grant it. It
    /// is never granted when the response forbids serving it stale (``CacheLookup/forbidsServingStale(_:mode:)``,
    /// RFC 9111 §4.2.4). A response that is still fresh is usable, unless it has `no-cache` (§5.2.2.4: never reused
    /// without a successful validation).
    /// - Parameters:
    ///   - stored: The stored response.
    ///   - requestDirectives: The new request's directives.
    ///   - mode: Whose cache it is.
    ///   - now: The cache's current time: when the error arrived.
    /// - Returns: Whether to serve `stored` instead of the error.
    static func allowsServing(
        _ stored: StoredResponse, requestDirectives: CacheControl, mode: CacheMode, now: Date
    ) -> Bool {
        let directives = stored.cacheControl
        guard !directives.noCache else { return false }
        let staleness = stored.age(now: now).currentAge - stored.freshnessLifetime(mode: mode).seconds
        if staleness < 0 { return true }
        guard !CacheLookup.forbidsServingStale(directives, mode: mode) else { return false }
        let windows = [directives.staleIfError, requestDirectives.staleIfError].compactMap { $0 }
        guard let window = windows.max() else { return false }
        return staleness <= TimeInterval(window)
    }
}
