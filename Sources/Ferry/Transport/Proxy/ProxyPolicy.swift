import Foundation

/// Whether and through which proxy a transport connects: one value, the same meaning on every transport.
///
/// ``environment`` is the default on ``URLSessionTransport`` and `AsyncHTTPClientTransport`. On Linux both follow the
/// variables curl reads, with curl's rules (Ferry reads them for `AsyncHTTPClientTransport`, libcurl for URLSession),
/// so the two transports proxy the same requests; on Apple platforms URLSession follows the system's proxy settings
/// instead. A transport that cannot honour a policy refuses it when it is created, with
/// ``FerryError/Reason/unsupportedSetting(setting:remedy:)``: a request never runs without the policy it was given.
///
/// ```swift
/// let transport = try AsyncHTTPClientTransport(
///     proxy: .http(host: "proxy.internal", port: 3128, credentials: .init(username: "ci", password: "secret")))
/// let session = Session(configuration: .init(transport: transport))
/// ```
///
/// Credentials go to the proxy only (`Proxy-Authorization` on the `CONNECT`, or the SOCKS5 handshake), never to
/// the origin, and never appear in ``Request``, cURL, HAR or log output: the request does not carry them.
public enum ProxyPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Never through a proxy, whatever the environment says.
    case direct
    /// As curl does: `http_proxy` for `http` URLs (lower case only, as curl: the upper-case name can be set by a
    /// CGI request's `Proxy` header), `HTTPS_PROXY` or `https_proxy` for `https` URLs, else `ALL_PROXY` or
    /// `all_proxy`; `NO_PROXY` or `no_proxy` lists the hosts reached directly. The variables are read when the
    /// transport is created. See ``EnvironmentProxySettings``.
    case environment
    /// Through an HTTP proxy, with `Proxy-Authorization: Basic` when `credentials` are given.
    case http(host: String, port: Int, credentials: ProxyCredentials? = nil)
    /// Through a SOCKS5 proxy, without authentication; the proxy resolves the host name.
    case socks5(host: String, port: Int)

    /// The policy as text, credentials left out: `http://proxy:3128 (with credentials)`.
    public var description: String {
        switch self {
        case .direct: "direct"
        case .environment: "environment"
        case .http(let host, let port, let credentials):
            "http://\(ProxyServer.hostText(host)):\(port)" + (credentials == nil ? "" : " (with credentials)")
        case .socks5(let host, let port): "socks5://\(ProxyServer.hostText(host)):\(port)"
        }
    }
}

/// A user name and password for a proxy. Its description never shows the password.
public struct ProxyCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The user name.
    public var username: String
    /// The password.
    public var password: String

    /// Creates credentials.
    /// - Parameters:
    ///   - username: The user name.
    ///   - password: The password.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `username:***`.
    public var description: String { "\(username):***" }
}

/// The proxy one request goes through, once a ``ProxyPolicy`` was applied to its URL.
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// How the transport talks to the proxy.
    public enum Kind: Sendable, Hashable {
        /// HTTP: a `CONNECT` tunnel, or an absolute-form request, as the engine does it.
        case http
        /// SOCKS5, the proxy resolving the host name.
        case socks5
    }

    /// How the transport talks to the proxy.
    public var kind: Kind
    /// The proxy's host name or IP address (without brackets).
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The credentials for an HTTP proxy.
    public var credentials: ProxyCredentials?

    /// Creates a proxy server description.
    /// - Parameters:
    ///   - kind: HTTP or SOCKS5.
    ///   - host: The host name or IP address.
    ///   - port: The port.
    ///   - credentials: The credentials for an HTTP proxy.
    public init(kind: Kind, host: String, port: Int, credentials: ProxyCredentials? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.credentials = credentials
    }

    /// `http://host:port` or `socks5://host:port`; credentials left out.
    public var description: String {
        "\(kind == .http ? "http" : "socks5")://\(Self.hostText(host)):\(port)"
            + (credentials == nil ? "" : " (with credentials)")
    }

    /// A host for a URL: an IPv6 address in brackets.
    static func hostText(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}

extension ProxyPolicy {
    /// A proxy given as a URL, read as curl reads `--proxy` and `http_proxy`: `http://` (also when no scheme is
    /// given) with optional `user:password@`, or `socks5://`/`socks5h://`; port 1080 when omitted.
    /// - Parameter url: The proxy's URL, such as `http://user:secret@proxy.internal:3128`.
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` for another scheme, a SOCKS5 URL with
    ///   credentials, a port out of range or text that is not a URL.
    public init(url: String) throws(FerryError) {
        switch EnvironmentProxySettings.entry(variable: "the proxy URL", value: url) {
        case .server(let server):
            switch server.kind {
            case .http: self = .http(host: server.host, port: server.port, credentials: server.credentials)
            case .socks5: self = .socks5(host: server.host, port: server.port)
            }
        case .invalid(_, let value, let why):
            throw FerryError(
                .unsupportedSetting(setting: "the proxy \(EnvironmentProxySettings.redacted(value))", remedy: why))
        }
    }

    /// The proxy for a request to `url` under this policy, or `nil` to connect directly.
    /// - Parameters:
    ///   - url: The request's URL.
    ///   - environment: The environment's proxy settings, for ``environment``.
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` when the environment's variable for
    ///   the URL cannot be used.
    func server(for url: URL, environment: EnvironmentProxySettings) throws(FerryError) -> ProxyServer? {
        // A Unix socket is reached directly: no engine sends it through a proxy.
        if let scheme = url.scheme, URL.isUnixSocketScheme(scheme) { return nil }
        return switch self {
        case .direct: nil
        case .environment: try environment.server(for: url)
        case .http(let host, let port, let credentials):
            ProxyServer(kind: .http, host: host, port: port, credentials: credentials)
        case .socks5(let host, let port): ProxyServer(kind: .socks5, host: host, port: port)
        }
    }
}
