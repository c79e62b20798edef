#if AsyncHTTPClient && WebSocket
import Foundation
import NIOSSL

extension AsyncHTTPClientTransport {
    /// What a WebSocket of a session on this transport takes from it: the TLS configuration its requests to the
    /// same host use (the policy's trust roots, client identity, minimum version, per-host entries). A proxy its
    /// requests to the URL would go through is refused, loudly: Ferry's WebSocket engine connects directly.
    /// - Parameter request: The upgrade request (`http` or `https`).
    /// - Returns: The TLS configuration for a `wss` connection to the request's host.
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` for a proxy; an invalid TLS policy.
    func webSocketTLSConfiguration(for request: Request) throws(FerryError) -> TLSConfiguration {
        let server: ProxyServer?
        do throws(FerryError) {
            server = try proxy?.server(for: request.url, environment: environmentProxies)
        } catch {
            throw FerryError(error.reason, request: request)
        }
        if let server {
            throw FerryError(
                .unsupportedSetting(
                    setting: "a proxy (\(server.host):\(server.port)) for a WebSocket",
                    remedy:
                        "WebSockets connect directly: make the session's transport with proxy: .direct, or name the host in NO_PROXY"
                ), request: request)
        }
        if let perHostTLS, let host = request.url.host(percentEncoded: false),
            let policy = perHostTLS.perHostPolicy(for: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        {
            return try policy.nioConfiguration()
        }
        return configuration.tlsConfiguration ?? .makeClientConfiguration()
    }
}
#endif
