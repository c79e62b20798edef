extension FerryError {
    /// Why a tunnel through an HTTP proxy failed when the proxy answered `CONNECT` with an error the engine does not
    /// tell apart.
    static let proxyRefusedTunnel = "the proxy refused to open a tunnel to the server"

    /// This error, when the connection that failed was the one to `proxy`: a refused, unreachable or unanswered
    /// connection attempt, or a proxy name that did not resolve, is said to be the proxy's, not the server's (through a
    /// proxy the transport connects only to the proxy, and the server's name is the proxy's to resolve). The reason
    /// stays; any other error is returned as it is.
    func reachingProxy(_ proxy: ProxyServer) -> FerryError {
        let why: String
        switch (reason, detail) {
        case (.transport(.hostNotFound), _): why = "its host name was not found"
        case (.transport(.cannotConnect), .proxyFailed?), (.transport(.cannotConnect), .proxyUnreachable?): return self
        case (.transport(.cannotConnect), let detail): why = detail?.phrase ?? "the connection attempt failed"
        default: return self
        }
        var error = self
        error.detail = .proxyUnreachable(proxy: proxy.description, why: why)
        return error
    }

    /// This error, when a connection through `proxy` ran out of time with no telling where: the proxy, or the server
    /// behind it, did not answer in time. Any other error is returned as it is.
    func timingOutThrough(_ proxy: ProxyServer) -> FerryError {
        guard reason == .transport(.cannotConnect), detail == .connectTimedOut else { return self }
        var error = self
        error.detail = .proxyFailed("the proxy, or the server behind it, did not answer in time (\(proxy))")
        return error
    }
}
