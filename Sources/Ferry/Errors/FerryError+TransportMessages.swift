import Foundation

extension FerryError {
    /// What happened below HTTP, in words, with the host and port.
    func transportClause(_ failure: TransportFailure) -> String {
        let endpoint = self.endpoint
        if isProxyUnreachable(failure), let detail { return detail.phrase }
        switch failure {
        case .hostNotFound:
            return host.map { "host not found: \($0)" } ?? "the host was not found"
        case .cannotConnect:
            let base = endpoint.map { "could not connect to \($0)" } ?? "could not connect to the server"
            return base + (detail.map { ": \($0.phrase)" } ?? "")
        case .connectionLost:
            let connection = "the connection" + (endpoint.map { " to \($0)" } ?? "")
            let how =
                switch detail {
                case .connectionReset: "was reset"
                case .connectionClosed: "was closed by the server"
                default: "was lost"
                }
            guard let response else { return "\(connection) \(how) before a response arrived" }
            let announced = response.headers.contains("Content-Encoding") ? nil : response.expectedContentLength
            if detail == .bodyShorterThanAnnounced {
                return "the body ended before the "
                    + (announced.map { "\(HumanUnits.bytes($0)) its Content-Length announced" } ?? "announced length")
            }
            return "\(connection) \(how) before the body was complete"
                + (announced.map { " (\(HumanUnits.bytes($0)) announced)" } ?? "")
        case .invalidResponse:
            let base = "the response" + (endpoint.map { " from \($0)" } ?? "") + " is not valid HTTP"
            if case .malformedResponse(let what) = detail { return base + ": \(what)" }
            return base
        case .secureConnectionFailed:
            return "could not establish a secure connection to \(endpoint ?? "the server")"
                + (detail.map { ": \($0.phrase)" } ?? "")
        case .notConnected:
            return "the device is not connected to a network"
        case .unsupportedHost:
            return "URLSession on Linux (FoundationNetworking) cannot reach IPv6 literal hosts"
                + (host.map { " such as \($0)" } ?? "")
        case .other:
            if let detail { return "the transport failed: \(detail.phrase)" }
            return "the transport failed with an error Ferry does not classify (see underlyingError)"
        }
    }

    /// Whether `failure` is the proxy's: the connection to it, or its name, failed (``FerryError/reachingProxy(_:)``).
    private func isProxyUnreachable(_ failure: TransportFailure) -> Bool {
        guard failure == .hostNotFound || failure == .cannotConnect, case .proxyUnreachable? = detail else {
            return false
        }
        return true
    }

    /// What to check after a transport failure.
    func transportSuggestion(_ failure: TransportFailure) -> String? {
        let server = endpoint ?? "the server"
        if isProxyUnreachable(failure) {
            return "Check that the proxy is running at that address, as the ProxyPolicy or the proxy environment "
                + "variables name it."
        }
        switch failure {
        case .hostNotFound:
            return "Check the host name in the URL, and the DNS settings."
        case .cannotConnect:
            if case .proxyFailed = detail { return "Check the proxy's address and credentials in the ProxyPolicy." }
            if detail == .connectionRefused { return "Check that a server is listening on \(server)." }
            return "Check that a server is running on \(server) and can be reached from here."
        case .connectionLost:
            return "Retry the request; a failed download can continue from its resumeData."
        case .invalidResponse:
            return "Check that \(server) serves HTTP (not TLS or another protocol), and any proxy in between."
        case .secureConnectionFailed:
            return "Check the server's certificate (expiry, host name, trusted root) and that \(server) serves TLS."
        case .notConnected:
            return "Check the network connection."
        case .unsupportedHost:
            return "Use AsyncHTTPClientTransport (the package trait AsyncHTTPClient), "
                + "or a host name that resolves to \(host ?? "the address")."
        case .other:
            return nil
        }
    }

    /// `host:port` of the URL the transport was reaching: the failing URL a `URLError` names, else the request's.
    private var endpoint: String? {
        guard let url = transportURL, let host = Self.host(of: url) else { return nil }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return "\(host):\(port)"
    }

    /// The host of the URL the transport was reaching.
    private var host: String? { transportURL.flatMap(Self.host(of:)) }

    private var transportURL: URL? {
        (underlyingError as? URLError)?.failingURL ?? request?.url ?? response?.url
    }

    private static func host(of url: URL) -> String? {
        guard let host = url.host, !host.isEmpty else { return nil }
        return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
