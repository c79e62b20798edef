#if WebSocket
import Foundation
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOSOCKS

/// A WebSocket's way through the proxy the session's transport would use for its URL: an HTTP `CONNECT` tunnel
/// (RFC 6455 §4.1 asks for one for `ws` too, so that the proxy never reads the upgrade), with `Proxy-Authorization:
/// Basic` when the policy has credentials, or a SOCKS5 connection, the proxy resolving the host name. SwiftNIO's
/// handlers do the work (swift-nio-extras' `NIOHTTP1ProxyConnectHandler` and `SOCKSClientHandler`); once the tunnel
/// is open, the channel is the server's, and TLS and the upgrade go on as on a direct connection.
enum WebSocketProxyTunnel {
    /// Starts the tunnel on a new channel to the proxy.
    /// - Parameters:
    ///   - channel: The channel, connected (or connecting) to the proxy; on its event loop.
    ///   - proxy: The proxy.
    ///   - host: The server's host (no brackets).
    ///   - port: The server's port.
    ///   - deadline: The handshake's deadline: the proxy must open the tunnel before it (within 10 s without one),
    ///     noted as run out when the proxy took it all.
    /// - Returns: A future that succeeds when the tunnel is open, with only the channel's own handlers left, or fails
    ///   with a ``FerryError`` that names the proxy (``FerryError/Reason/transport(_:)`` `cannotConnect`).
    static func open(
        _ channel: any Channel, through proxy: ProxyServer, host: String, port: Int, deadline: HandshakeDeadline
    ) throws -> EventLoopFuture<Void> {
        // What is left of the handshake's time, or 10 s without a deadline.
        let end = deadline.end(orIn: .seconds(10))
        let promise = channel.eventLoop.makePromise(of: Void.self)
        let pipeline = channel.pipeline.syncOperations
        switch proxy.kind {
        case .http:
            var headers = NIOHTTP1.HTTPHeaders()
            headers.add(name: "Host", value: "\(ProxyServer.hostText(host)):\(port)")
            if let credentials = proxy.credentials {
                let token = Data("\(credentials.username):\(credentials.password)".utf8).base64EncodedString()
                headers.add(name: "Proxy-Authorization", value: "Basic \(token)")
            }
            let encoder = HTTPRequestEncoder()
            let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes))
            // An IPv6 address goes in brackets in the CONNECT target (RFC 9110 §9.3.6: an authority).
            let connect = NIOHTTP1ProxyConnectHandler(
                targetHost: ProxyServer.hostText(host), targetPort: port, headers: headers,
                deadline: end,
                promise: promise)
            try pipeline.addHandlers([encoder, decoder, connect])
            // Open, the tunnel carries the server's bytes: the handler that spoke to the proxy removes itself, and
            // the HTTP codec leaves too.
            return promise.futureResult.assumeIsolated().flatMap {
                channel.pipeline.syncOperations.removeHandler(decoder).assumeIsolated().flatMap {
                    channel.pipeline.syncOperations.removeHandler(encoder)
                }.nonisolated()
            }.nonisolated().flatMapErrorThrowing { error in
                channel.close(promise: nil)
                throw failure(error, proxy: proxy, deadline: deadline)
            }
        case .socks5:
            // An address as an address; a name for the proxy to resolve.
            let target: SOCKSAddress =
                (try? SocketAddress(ipAddress: host, port: port)).map { .address($0) } ?? .domain(host, port: port)
            try pipeline.addHandlers([
                SOCKSClientHandler(targetAddress: target), SOCKSEstablishedHandler(promise: promise),
            ])
            let timer = channel.eventLoop.scheduleTask(deadline: end) { promise.fail(NoAnswer()) }
            return promise.futureResult.always { _ in timer.cancel() }.flatMapErrorThrowing { error in
                channel.close(promise: nil)
                throw failure(error, proxy: proxy, deadline: deadline)
            }
        }
    }

    private static let noAnswer = "the proxy did not answer in time"
    private static let closedEarly = "the connection to the proxy closed before the tunnel opened"

    /// The SOCKS5 handshake took longer than the time allowed.
    private struct NoAnswer: Error {}

    /// What went wrong at the proxy, in Ferry's words. A proxy that took all of the handshake's deadline ran it out:
    /// the caller reports the request's timeout then, as it does for a server that takes as long.
    private static func failure(_ error: any Error, proxy: ProxyServer, deadline: HandshakeDeadline) -> FerryError {
        typealias Known = NIOHTTP1ProxyConnectHandler.Error
        let why: String
        if error is NoAnswer || (error as? Known) == Known.httpProxyHandshakeTimeout() {
            if deadline.end != nil { deadline.expire() }
            why = noAnswer
        } else if let error = error as? Known {
            if error == Known.proxyAuthenticationRequired() {
                why = "the proxy refused the credentials (407 Proxy Authentication Required)"
            } else if [Known.remoteConnectionClosed(), .noResult(), .channelUnexpectedlyInactive()].contains(error) {
                // `noResult`: the handler left a socket that closed before it connected.
                why = closedEarly
            } else {
                why = FerryError.proxyRefusedTunnel
            }
        } else if error is SOCKSError.ConnectionFailed {
            why = "the SOCKS5 proxy could not reach the server"
        } else if error is ChannelError {
            why = closedEarly
        } else {
            why = FerryError.proxyRefusedTunnel
        }
        return FerryError(
            .transport(.cannotConnect), detail: .proxyFailed("\(why) (\(proxy))"), underlyingError: error)
    }
}

/// Completes the tunnel's promise when the SOCKS5 handshake is done (then leaves the pipeline), or fails it with the
/// first error, the connection's end, or the handler's removal before then (a channel closed before it connected).
private final class SOCKSEstablishedHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let promise: EventLoopPromise<Void>

    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is SOCKSProxyEstablishedEvent else { return context.fireUserInboundEventTriggered(event) }
        promise.succeed()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.eof)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // A no-op once the promise is complete: only a removal before the tunnel opened fails it.
        promise.fail(ChannelError.ioOnClosedChannel)
    }
}
#endif
