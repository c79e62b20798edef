#if AsyncHTTPClient && WebSocket
import Foundation
import NIOSSL

extension AsyncHTTPClientTransport {
    /// The proxy a WebSocket of a session on this transport goes through: the one this transport's requests to the
    /// same URL would use (the policy, the environment's variables and `NO_PROXY`). A proxy of the client's own
    /// configuration, which Ferry cannot read, is refused, loudly, rather than bypassed.
    /// - Parameter request: The upgrade request (`http` or `https`).
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` for the configuration's own proxy, or an
    ///   environment variable that cannot be used.
    func webSocketProxy(for request: Request) throws(FerryError) -> ProxyServer? {
        guard let proxy else {
            guard configuration.proxy == nil else {
                throw FerryError(
                    .unsupportedSetting(
                        setting: "the proxy of the AsyncHTTPClient configuration, for a WebSocket",
                        remedy: "Give the transport a ProxyPolicy instead (AsyncHTTPClientTransport(proxy:)): "
                            + "WebSockets go through the policy's proxy."), request: request)
            }
            return nil
        }
        do throws(FerryError) {
            return try proxy.server(for: request.url, environment: environmentProxies)
        } catch {
            throw FerryError(error.reason, request: request)
        }
    }

    /// What a `wss` WebSocket of a session on this transport takes from it: the TLS configuration its requests to
    /// the same host use (the policy's trust roots, client identity, minimum version, per-host entries).
    /// - Parameter request: The upgrade request (`https`).
    /// - Returns: The TLS configuration for a `wss` connection to the request's host.
    /// - Throws: An invalid TLS policy.
    func webSocketTLSConfiguration(for request: Request) throws(FerryError) -> TLSConfiguration {
        if let perHostTLS, let host = request.url.host(percentEncoded: false),
            let policy = perHostTLS.perHostPolicy(for: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        {
            return try policy.nioConfiguration()
        }
        return configuration.tlsConfiguration ?? .makeClientConfiguration()
    }
}
#endif
