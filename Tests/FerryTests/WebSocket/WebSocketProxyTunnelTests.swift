#if WebSocket
@testable import Ferry
import NIOCore
import NIOEmbedded
import Testing

/// A WebSocket's proxy tunnel set up on an `EmbeddedChannel`, on the embedded loop's clock.
@Suite("A WebSocket's proxy tunnel (WebSocket trait)")
struct WebSocketProxyTunnelTests {
    @Test(arguments: [ProxyServer.Kind.http, .socks5])
    func aChannelClosedBeforeItConnectedFailsTheTunnelAtOnce(kind: ProxyServer.Kind) throws {
        // Given a tunnel set up on a channel that has not connected yet (the engine sets it up before connecting),
        // with no deadline: the tunnel's own timer would end it 10 s later
        let channel = EmbeddedChannel()
        let deadline = HandshakeDeadline(idle: nil, total: nil)
        let proxy = ProxyServer(kind: kind, host: "127.0.0.1", port: 1080)
        let tunnel = try WebSocketProxyTunnel.open(
            channel, through: proxy, host: "example.test", port: 80, deadline: deadline)
        var result: Result<Void, any Error>?
        tunnel.assumeIsolated().whenComplete { result = $0 }
        // When the channel closes before it connects (its attempt failed, or the awaiting task was cancelled)
        channel.close(promise: nil)
        channel.embeddedEventLoop.run()
        // Then the tunnel fails now, not when its timer fires, as a proxy that could not be used
        guard case .failure(let error as FerryError) = result else {
            Issue.record("expected the tunnel to have failed with a FerryError, got \(String(describing: result))")
            return
        }
        #expect(error.reason == .transport(.cannotConnect))
        #expect(!deadline.hasExpired)
    }
}
#endif
