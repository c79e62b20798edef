#if WebSocket
@testable import Ferry
import NIOCore
import NIOEmbedded
import NIOPosix
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

    // Without the handlers' removal the HTTP tunnel would never end: its timer starts when the socket connects.
    @Test(.timeLimit(.minutes(1)), arguments: [ProxyServer.Kind.http, .socks5])
    func aSocketWhoseConnectionIsRefusedFailsTheTunnelAtOnce(kind: ProxyServer.Kind) async throws {
        // Given a tunnel set up on a real socket, with no deadline (its own timer would end it 10 s later), to a
        // proxy port where nothing listens. Such a socket never becomes active, so its handlers see no
        // `channelInactive`: they are only removed when it closes.
        let refusing = try RefusingPort()
        let port = refusing.port
        let deadline = HandshakeDeadline(idle: nil, total: nil)
        let proxy = ProxyServer(kind: kind, host: "127.0.0.1", port: port)
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let tunnel = eventLoop.makePromise(of: Void.self)
        let bootstrap = ClientBootstrap(group: eventLoop).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try WebSocketProxyTunnel.open(
                    channel, through: proxy, host: "example.test", port: 80, deadline: deadline
                )
                .cascade(to: tunnel)
            }
        }
        // When the connection is refused
        await #expect(throws: (any Error).self) { _ = try await bootstrap.connect(host: "127.0.0.1", port: port).get() }
        // Then the tunnel has failed as a connection that closed, not as a proxy that refused or never answered
        let error = await #expect(throws: FerryError.self) { try await tunnel.futureResult.get() }
        #expect(error?.reason == .transport(.cannotConnect))
        guard case .proxyFailed(let why) = error?.detail else {
            Issue.record("expected a proxy failure, got \(String(describing: error?.detail))")
            return
        }
        #expect(why.hasPrefix("the connection to the proxy closed before the tunnel opened"), "\(why)")
        withExtendedLifetime(refusing) {}
    }
}
#endif
