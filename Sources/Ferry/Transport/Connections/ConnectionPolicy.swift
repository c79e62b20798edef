/// How a transport keeps its connections: how many per host, how long an idle one stays open, and which HTTP
/// versions it may speak. `nil` leaves a setting to the engine.
///
/// A transport that cannot honour a setting refuses the policy when it is made, with
/// ``FerryError/Reason/unsupportedSetting(setting:remedy:)``. `AsyncHTTPClientTransport` honours all of it;
/// ``URLSessionTransport`` honours ``maximumConnectionsPerHost`` (`httpMaximumConnectionsPerHost`) only: URLSession has
/// no setting for the idle lifetime of a connection or the HTTP version.
///
/// How many *requests* run at once per host and per session is Ferry's own business, the same on every transport:
/// ``Session/Configuration/maximumRequestsPerHost`` and ``Session/Configuration/maximumRequestsInFlight``.
public struct ConnectionPolicy: Sendable, Hashable {
    /// Which HTTP versions connections may speak.
    public enum HTTPVersions: Sendable, Hashable {
        /// HTTP/2 where TLS negotiates it (ALPN), else HTTP/1.1: the default.
        case automatic
        /// HTTP/1.1 only, also where the server offers HTTP/2.
        case http1Only
    }

    /// How many connections to one host (scheme, host and port) may be open at once; the engine's default
    /// (AsyncHTTPClient: 8; URLSession: 6 on Apple platforms, unlimited on Linux) when `nil`.
    public var maximumConnectionsPerHost: Int?
    /// How long a connection may stay open without a request before it is closed; the engine's default
    /// (AsyncHTTPClient: 60 s) when `nil`.
    public var idleConnectionTimeout: Duration?
    /// Which HTTP versions connections may speak; ``HTTPVersions/automatic`` by default.
    public var httpVersions: HTTPVersions

    /// Creates a policy.
    /// - Parameters:
    ///   - maximumConnectionsPerHost: How many connections to one host may be open at once; at least 1.
    ///   - idleConnectionTimeout: How long an idle connection stays open; more than zero.
    ///   - httpVersions: Which HTTP versions connections may speak.
    public init(
        maximumConnectionsPerHost: Int? = nil, idleConnectionTimeout: Duration? = nil,
        httpVersions: HTTPVersions = .automatic
    ) {
        self.maximumConnectionsPerHost = maximumConnectionsPerHost
        self.idleConnectionTimeout = idleConnectionTimeout
        self.httpVersions = httpVersions
    }

    /// Every setting left to the engine.
    public static var `default`: ConnectionPolicy { ConnectionPolicy() }

    /// Throws when a value is out of range.
    func validate() throws(FerryError) {
        if let maximum = maximumConnectionsPerHost, maximum < 1 {
            throw FerryError(
                .unsupportedSetting(
                    setting: "maximumConnectionsPerHost = \(maximum)", remedy: "Allow at least one connection."))
        }
        if let timeout = idleConnectionTimeout, timeout <= .zero {
            throw FerryError(
                .unsupportedSetting(
                    setting: "idleConnectionTimeout = \(timeout)", remedy: "Give a duration above zero, or nil."))
        }
    }
}
