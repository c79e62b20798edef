import Ferry

/// A port on 127.0.0.1 that a test's fault lives behind (``RefusingPort``, ``StallingPort``).
protocol LoopbackPort: Sendable {
    /// The port number.
    var port: Int { get }
}

extension LoopbackPort {
    /// A policy that sends every request through this port as a proxy of `kind`: one that is down, or never
    /// answers, as the port behaves.
    func proxy(_ kind: ProxyServer.Kind) -> ProxyPolicy {
        .loopback(kind, port: port)
    }
}

extension ProxyPolicy {
    /// A proxy of `kind` on 127.0.0.1.
    static func loopback(_ kind: ProxyServer.Kind, port: Int) -> ProxyPolicy {
        switch kind {
        case .http: .http(host: "127.0.0.1", port: port)
        case .socks5: .socks5(host: "127.0.0.1", port: port)
        }
    }
}
