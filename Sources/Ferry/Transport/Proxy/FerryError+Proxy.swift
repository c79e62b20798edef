extension FerryError {
    /// This error, when the connection that failed was to `proxy`: a refused, unreachable or unanswered connection
    /// attempt, or a host name that did not resolve, is said to be the proxy's, not the server's, since through a
    /// proxy the transport connects only to the proxy. Any other error is returned as it is.
    ///
    /// The reason becomes `transport(.cannotConnect)` (a proxy whose name does not resolve included: the server's
    /// name was never looked up), and the message names the proxy.
    func reachingProxy(_ proxy: ProxyServer) -> FerryError {
        let what: String
        switch (reason, detail) {
        case (.transport(.hostNotFound), _):
            what = "its host name was not found"
        case (.transport(.cannotConnect), .proxyFailed?):
            return self
        case (.transport(.cannotConnect), let detail?):
            what = detail.phrase
        case (.transport(.cannotConnect), nil):
            what = "the connection attempt failed"
        default:
            return self
        }
        var error = self
        error.reason = .transport(.cannotConnect)
        error.detail = .proxyFailed("the proxy could not be reached: \(what) (\(proxy))")
        return error
    }
}
