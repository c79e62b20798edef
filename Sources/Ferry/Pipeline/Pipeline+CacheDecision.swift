extension Pipeline {
    /// Records that the cache settled where the response comes from: ``Metrics/cacheStatus``, the instant
    /// (``Timeline/cacheDecided``) and the monitors' ``EventMonitor/cacheDecided(_:for:id:)``. Called once per
    /// request that consulted the cache: at the lookup when it answers or sends the request as it is, with the
    /// answer when a stored response was revalidated.
    /// - Parameters:
    ///   - status: Where the response comes from.
    ///   - request: The request looked up.
    ///   - exchange: The request's measures.
    ///   - id: The request's identity.
    func settleCache(_ status: CacheStatus, for request: Request, exchange: Exchange, id: RequestID) {
        exchange.cacheStatus = status
        exchange.cacheDecided = .now
        observers.observe(.cacheDecided(status, request), id: id)
    }
}
