#if WebSocket && AsyncHTTPClient
import Ferry
import Foundation
import Testing

/// `wss` on a session whose transport is AsyncHTTPClient: the socket takes the transport's TLS policy. nginx's TLS
/// servers speak no WebSocket, so they refuse the upgrade with their usual JSON answer: a refusal with a status is
/// the proof that the TLS handshake, which comes first, succeeded.
@Suite(
    "WebSocket over TLS with the transport's policy (WebSocket and AsyncHTTPClient traits)",
    .enabled(if: TLSServers.available))
struct WebSocketTLSInteropTests {
    private func upgrade(_ name: String, host: String = "127.0.0.1", _ transport: any Transport) async -> FerryError? {
        let session = Session(configuration: .init(idleTimeout: Duration.seconds(20).scaled, transport: transport))
        let url = TLSServers.url(name, host: host).absoluteString.replacingOccurrences(of: "https://", with: "wss://")
        do {
            _ = try await session.webSocket(url).head
            return nil
        } catch {
            return error
        }
    }

    @Test func thePoliciesRootsAreTrusted() async throws {
        let trusting = try AsyncHTTPClientTransport(
            proxy: .direct, tls: TLSPolicy(trustRoots: .only([try TLSServers.root()])))
        #expect(await upgrade("valid", trusting)?.reason == .unacceptableStatus(200))
        #expect(await upgrade("expired", trusting)?.reason == .transport(.secureConnectionFailed))
        let systemOnly = try AsyncHTTPClientTransport(proxy: .direct, tls: .default)
        #expect(await upgrade("valid", systemOnly)?.reason == .transport(.secureConnectionFailed))
    }

    @Test func aPerHostPolicyAppliesToItsHost() async throws {
        let policy = TLSPolicy(
            trustRoots: .only([try TLSServers.root()]),
            perHost: ["localhost": TLSPolicy(serverVerification: .dangerouslyAcceptingAnyCertificate)])
        let transport = try AsyncHTTPClientTransport(proxy: .direct, tls: policy)
        #expect(await upgrade("wrongHost", host: "localhost", transport)?.reason == .unacceptableStatus(200))
        let strict = await upgrade("wrongHost", transport)
        #expect(strict?.reason == .transport(.secureConnectionFailed), "\(String(describing: strict))")
    }

    @Test func theClientIdentityIsOffered() async throws {
        let root = try TLSServers.root()
        let identity = TLSClientIdentity.pem(
            certificateChain: try TLSServers.data("client.pem"), privateKey: try TLSServers.data("client.key"))
        let with = try AsyncHTTPClientTransport(
            proxy: .direct, tls: TLSPolicy(trustRoots: .only([root]), clientIdentity: identity))
        let without = try AsyncHTTPClientTransport(proxy: .direct, tls: TLSPolicy(trustRoots: .only([root])))
        // nginx answers 400 to a request that came without the certificate it asks for.
        #expect(await upgrade("clientCertificateRequired", with)?.reason == .unacceptableStatus(200))
        #expect(await upgrade("clientCertificateRequired", without)?.reason == .unacceptableStatus(400))
        // A PKCS#12 bundle as well
        let bundle = TLSClientIdentity.pkcs12(try TLSServers.data("client.p12"), password: "ferry")
        let withBundle = try AsyncHTTPClientTransport(
            proxy: .direct, tls: TLSPolicy(trustRoots: .only([root]), clientIdentity: bundle))
        #expect(await upgrade("clientCertificateRequired", withBundle)?.reason == .unacceptableStatus(200))
    }

    @Test func theMinimumVersionAndRootsAddedToTheSystemsApply() async throws {
        let root = try TLSServers.root()
        let modern = try AsyncHTTPClientTransport(
            proxy: .direct, tls: TLSPolicy(trustRoots: .systemAnd([root]), minimumVersion: .tls1_3))
        // The run's root added to the system's opens the TLS 1.3 server; TLS 1.3 as the minimum refuses the 1.2 one
        #expect(await upgrade("tls13Only", modern)?.reason == .unacceptableStatus(200))
        #expect(await upgrade("tls12Only", modern)?.reason == .transport(.secureConnectionFailed))
        let any = try AsyncHTTPClientTransport(proxy: .direct, tls: TLSPolicy(trustRoots: .systemAnd([root])))
        #expect(await upgrade("tls12Only", any)?.reason == .unacceptableStatus(200))
    }

    @Test(.enabled(if: ProxyServers.available))
    func tlsRunsThroughTheProxysTunnel() async throws {
        // pproxy tunnels (HTTP CONNECT, then SOCKS5) to nginx, and the TLS handshake runs end to end through it
        let policy = TLSPolicy(trustRoots: .only([try TLSServers.root()]))
        let port = try #require(ProxyServers.open?.port)
        for proxy in [ProxyPolicy.http(host: "127.0.0.1", port: port), .socks5(host: "127.0.0.1", port: port)] {
            let transport = try AsyncHTTPClientTransport(proxy: proxy, tls: policy)
            #expect(await upgrade("valid", transport)?.reason == .unacceptableStatus(200), "\(proxy)")
            #expect(await upgrade("expired", transport)?.reason == .transport(.secureConnectionFailed), "\(proxy)")
        }
    }
}
#endif
