#if WebSocket
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
// The frame handler swift-websocket's own client runs (framing, masking, UTF-8 validation, fragments, pings, the
// close handshake), reached through its SPI so that Ferry can make the upgrade itself and keep its response head,
// which the library's `WebSocketClient` does not expose. The package is pinned to its minor version for this.
import WSCompression
@_spi(WSInternal) import WSCore

/// The WebSocket engine of the `WebSocket` trait: SwiftNIO makes the connection and the upgrade, swift-websocket's
/// handler runs the socket.
enum WebSocketEngine {
    /// Whether this build can open a WebSocket.
    static let isAvailable = true

    /// What the upgrade produced.
    private enum Upgrade: Sendable {
        case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, HTTPResponseHead)
        case refused(EventLoopFuture<RefusedResponse>)
    }

    /// The context swift-websocket's handler wants: a logger that logs nothing (Ferry's own logging does not see
    /// WebSockets yet).
    private struct Context: WebSocketContext {
        let logger: Logger
    }

    /// Connects, upgrades and starts the socket's task.
    /// - Throws: ``FerryError``: no connection, a refused upgrade (``FerryError/Reason/unacceptableStatus(_:)`` with
    ///   the response head and body prefix), a subprotocol the client did not offer.
    static func connect(
        _ request: Request, options: WebSocketOptions, transport: any Transport, inbox: WebSocketInbox
    ) async throws(FerryError) -> WebSocketOpen {
        let url = request.url
        let usesTLS = url.scheme?.lowercased() == "https"
        let tls = try tlsConfiguration(for: request, transport: transport)
        let proxy = try proxyServer(for: request, transport: transport)
        guard let host = url.host(percentEncoded: false), !host.isEmpty else {
            throw FerryError(.invalidURL("\"\(url.absoluteString)\" has no host"), request: request)
        }
        let bareHost = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let port = url.port ?? (usesTLS ? 443 : 80)
        let upgrade: Upgrade
        // The handshake (connection, a proxy's tunnel, TLS, upgrade, a refusal's body) must end by one instant: the
        // request's idle timeout from now, or what is left of its total timeout when that is shorter. Cancelling the
        // awaiting task closes its channels.
        let deadline = HandshakeDeadline(idle: request.idleTimeout, total: request.totalTimeout)
        // permessage-deflate, when asked for: offered in the request, enabled if the server's answer accepts it. The
        // offer's `client_max_window_bits=15` lets the server choose a smaller window for what Ferry compresses
        // (RFC 7692 §7.1.2.2): without it a server that wants one must decline compression (Autobahn 13.3 to 13.6).
        let extensionBuilders: [any WebSocketExtensionBuilder] =
            options.offersCompression
            ? [
                WebSocketExtensionFactory.perMessageDeflate(
                    clientMaxWindow: 15, maxDecompressedFrameSize: options.maximumMessageSize
                ).build()
            ]
            : []
        do {
            upgrade = try await withTaskCancellationHandler {
                try await upgraded(
                    request, host: bareHost, port: port, proxy: proxy, usesTLS: usesTLS, tls: tls, options: options,
                    extensionBuilders: extensionBuilders, transport: transport, inbox: inbox, deadline: deadline)
            } onCancel: {
                deadline.cancel()
            }
        } catch {
            if deadline.hasExpired { throw FerryError(.timedOut(deadline.kind), request: request) }
            // Through a proxy the socket connects only to the proxy: a connection that failed was the proxy's.
            let failure = connectionError(error, request: request)
            throw proxy.map(failure.reachingProxy) ?? failure
        }
        switch upgrade {
        case .refused(let refusal):
            let refused: RefusedResponse
            do {
                refused = try await withTaskCancellationHandler {
                    try await refusal.get()
                } onCancel: {
                    deadline.cancel()
                }
            } catch {
                throw deadline.hasExpired
                    ? FerryError(.timedOut(deadline.kind), request: request)
                    : connectionError(error, request: request)
            }
            // A refusal whose body the deadline or a cancellation cut short (by closing its channel) ends as that, not
            // as a complete response: a redirect is not followed after a cancellation.
            if deadline.hasExpired { throw FerryError(.timedOut(deadline.kind), request: request) }
            if Task.isCancelled { throw FerryError(.cancelled, request: request) }
            let head = response(refused.head, url: url)
            throw FerryError(
                .unacceptableStatus(head.statusCode), request: request, response: head,
                body: Data(copying: refused.body))
        case .upgraded(let channel, let responseHead):
            return try await opened(
                channel, responseHead: responseHead, request: request, options: options,
                extensionBuilders: extensionBuilders, inbox: inbox)
        }
    }

    /// Connects and sends the upgrade request: the upgraded channel, or a refusal whose response is still coming.
    private static func upgraded(
        _ request: Request, host bareHost: String, port: Int, proxy: ProxyServer?, usesTLS: Bool, tls: TLSConfiguration,
        options: WebSocketOptions, extensionBuilders: [any WebSocketExtensionBuilder], transport: any Transport,
        inbox: WebSocketInbox, deadline: HandshakeDeadline
    ) async throws -> Upgrade {
        var upgradeHead = requestHead(request, host: bareHost, port: port, usesTLS: usesTLS)
        for builder in extensionBuilders where !builder.clientRequestHeader().isEmpty {
            upgradeHead.headers.add(name: "Sec-WebSocket-Extensions", value: builder.clientRequestHeader())
        }
        let head = upgradeHead
        let limit = options.maximumMessageSize
        let keepAlive = options.keepAliveInterval
        // The transport's connect timeout, or what is left of the handshake's time when that is shorter: an attempt
        // that runs out then is the handshake's timeout running out, not a host that cannot be reached.
        let connect = deadline.connectTimeout(limit: connectTimeout(of: transport))
        do {
            // The connection attempt's own errors (its timeout among them) come from `connect`, the rest of the
            // handshake's from the future it returns.
            let future = try await bootstrap(for: transport)
                .connectTimeout(connect.timeout)
                .connect(host: proxy?.host ?? bareHost, port: proxy?.port ?? port) { channel in
                    deadline.attach(channel)
                    return channel.eventLoop.makeCompletedFuture {
                        @Sendable func configured() throws -> EventLoopFuture<Upgrade> {
                            try configure(
                                channel, head: head, tls: usesTLS ? (tls, bareHost) : nil, maximumMessageSize: limit,
                                keepAliveInterval: keepAlive, inbox: inbox, deadline: deadline)
                        }
                        guard let proxy else { return try configured() }
                        // Through the proxy first; then TLS and the upgrade, on the tunnel, as on a direct
                        // connection.
                        return try WebSocketProxyTunnel.open(
                            channel, through: proxy, host: bareHost, port: port, deadline: deadline
                        ).flatMapThrowing { try configured() }.flatMap { $0 }
                    }
                }
            return try await future.get()
        } catch {
            if connect.isTheDeadline, case ChannelError.connectTimeout = error { deadline.expire() }
            throw error
        }
    }

    /// An upgraded channel as an open socket: the `101`'s subprotocol checked, the extensions built, the socket's
    /// task started.
    private static func opened(
        _ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, responseHead: HTTPResponseHead, request: Request,
        options: WebSocketOptions, extensionBuilders: [any WebSocketExtensionBuilder], inbox: WebSocketInbox
    ) async throws(FerryError) -> WebSocketOpen {
        let url = request.url
        let head = response(responseHead, url: url)
        if let error = WebSocketHandshake.unofferedSubprotocolError(in: head, for: request) {
            try? await channel.channel.close()
            throw error
        }
        let extensions: [any WebSocketExtension]
        do {
            var fields = HTTPFields()
            for field in head.headers {
                if let name = HTTPField.Name(field.name) {
                    fields.append(HTTPField(name: name, value: field.value))
                }
            }
            extensions = try extensionBuilders.buildClientExtensions(from: fields)
        } catch {
            try? await channel.channel.close()
            throw FerryError(
                .transport(.invalidResponse), request: request, response: head, underlyingError: error)
        }
        let (ready, readyContinuation) = AsyncStream.makeStream(of: WebSocketOutboundWriter.self)
        let run = Task {
            await runSocket(
                channel, options: options, extensions: extensions, inbox: inbox, request: request, head: head,
                ready: readyContinuation)
        }
        var iterator = ready.makeAsyncIterator()
        guard let outbound = await iterator.next() else {
            await run.value
            throw FerryError(.transport(.connectionLost), request: request, response: head)
        }
        return WebSocketOpen(
            request: request, head: head,
            send: { frame throws(FerryError) in
                try await send(frame, on: outbound, request: request, head: head)
            }, run: run)
    }

    /// A bootstrap on the event loops of the session's `AsyncHTTPClientTransport` (its client's group, when SwiftNIO's
    /// POSIX bootstrap can use it: `HTTPClient.defaultEventLoopGroup` on Linux is the same singleton), else on
    /// SwiftNIO's singleton group.
    private static func bootstrap(for transport: any Transport) -> ClientBootstrap {
        #if AsyncHTTPClient
        if let transport = transport as? AsyncHTTPClientTransport,
            let shared = ClientBootstrap(validatingGroup: transport.client.eventLoopGroup)
        {
            return shared
        }
        #endif
        return ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    }

    /// How long a connection attempt may take: the connect timeout of the session's `AsyncHTTPClientTransport`, else
    /// 10 s (AsyncHTTPClient's default).
    private static func connectTimeout(of transport: any Transport) -> TimeAmount {
        #if AsyncHTTPClient
        if let transport = transport as? AsyncHTTPClientTransport, let timeout = transport.configuration.timeout.connect
        {
            return timeout
        }
        #endif
        return .seconds(10)
    }

    /// The proxy the session's transport would use for the upgrade's URL, so that a WebSocket takes the same way as
    /// the session's requests (on a transport Ferry does not know, none).
    private static func proxyServer(for request: Request, transport: any Transport) throws(FerryError) -> ProxyServer? {
        #if AsyncHTTPClient
        if let transport = transport as? AsyncHTTPClientTransport { return try transport.webSocketProxy(for: request) }
        #endif
        if let transport = transport as? URLSessionTransport { return try transport.webSocketProxy(for: request) }
        return nil
    }

    /// The TLS configuration of a `wss` connection: the session's transport decides (AsyncHTTPClient's policy); on
    /// any other transport, the system's trust roots. A URLSession transport's own policy (Apple platforms) is
    /// refused rather than ignored: this engine's connections are not URLSession's.
    private static func tlsConfiguration(
        for request: Request, transport: any Transport
    ) throws(FerryError) -> TLSConfiguration {
        #if AsyncHTTPClient
        if let transport = transport as? AsyncHTTPClientTransport {
            return try transport.webSocketTLSConfiguration(for: request)
        }
        #endif
        if let transport = transport as? URLSessionTransport, !transport.router.trust.policy.isDefault {
            throw FerryError(
                .unsupportedSetting(
                    setting: "a URLSessionTransport's TLSPolicy for a WebSocket of the WebSocket trait",
                    remedy: "The trait's engine makes its own connections, which URLSession's policy does not reach. "
                        + "Give the session an AsyncHTTPClientTransport with the policy, or build without the "
                        + "trait on Apple platforms, where URLSessionWebSocketTask honours it."))
        }
        return .makeClientConfiguration()
    }

    /// Sends a frame on an open socket.
    private static func send(
        _ frame: WebSocketOutgoingFrame, on outbound: WebSocketOutboundWriter, request: Request, head: HTTPResponse
    ) async throws(FerryError) {
        do {
            switch frame {
            case .message(.text(let text)):
                try await outbound.write(.text(text))
            case .message(.binary(let data)):
                try await outbound.write(.binary(ByteBuffer(bytes: data)))
            case .ping(let payload):
                try await outbound.write(
                    .custom(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(bytes: payload.prefix(125)))))
            }
        } catch {
            throw FerryError(
                .webSocketClosed(.abnormalClosure), request: request, response: head, underlyingError: error)
        }
    }

    // MARK: The socket's task

    /// Runs the socket: the consumer reads messages through swift-websocket's handler, in its own task, when it
    /// wants one; a child sends a requested close; when reading is over, the handler's close handshake goes on,
    /// and then the inbox learns how the socket ended.
    private static func runSocket(
        _ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, options: WebSocketOptions,
        extensions: [any WebSocketExtension], inbox: WebSocketInbox, request: Request, head: HTTPResponse,
        ready: AsyncStream<WebSocketOutboundWriter>.Continuation
    ) async {
        let configuration = WebSocketHandler.Configuration(
            extensions: extensions,
            // Ferry's KeepAliveHandler pings instead: it sees pongs even while nobody reads messages.
            autoPing: .disabled,
            closeTimeout: options.closeTimeout, validateUTF8: true,
            maxFrameSize: options.maximumMessageSize)
        let logger = Logger(label: "Ferry.WebSocket", factory: { _ in SwiftLogNoOpLogHandler() })
        let limit = options.maximumMessageSize
        let end: WebSocketDelivery
        var closeFrame: WebSocketClose?
        do {
            let frame = try await WebSocketHandler.handle(
                type: .client, configuration: configuration, asyncChannel: channel, context: Context(logger: logger)
            ) { inbound, outbound, _ in
                ready.yield(outbound)
                ready.finish()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        guard let close = await inbox.closerWaits() else { return }
                        try await outbound.close(
                            WebSocketErrorCode(codeNumber: Int(close.code.rawValue)),
                            reason: close.reason.isEmpty ? nil : close.reason)
                    }
                    inbox.attach(MessageIterator(inbound.messages(maxSize: limit).makeAsyncIterator()).reader)
                    // The library's close handshake reads the socket again once this closure returns.
                    let failure = await inbox.readingEnds()
                    inbox.readerStopped()
                    if let failure { throw failure }
                    try await group.waitForAll()
                }
            }
            ready.finish()
            closeFrame = frame.map { WebSocketClose(code: closeCode($0.closeCode), reason: $0.reason ?? "") }
            if let fault = inbox.fault {
                end = .failure(FerryError(.webSocketClosed(fault), request: request, response: head))
                closeFrame = closeFrame ?? WebSocketClose(code: fault)
            } else {
                end = .success(nil)
            }
        } catch {
            ready.finish()
            if let code = inbox.fault ?? libraryCloseCode(in: error) {
                end = .failure(
                    FerryError(.webSocketClosed(code), request: request, response: head, underlyingError: error))
                closeFrame = WebSocketClose(code: code)
            } else {
                end = .failure(
                    FerryError(.transport(.connectionLost), request: request, response: head, underlyingError: error))
            }
        }
        inbox.finish(end, closeFrame: closeFrame)
    }

    /// swift-websocket's message iterator, which the consumer's task reads through the inbox: one read at a time,
    /// and none once ``WebSocketInbox/readingEnds()`` has returned (the inbox's state machine keeps to both), so the
    /// iterator is never used by two tasks at once.
    private final class MessageIterator: @unchecked Sendable {
        private var iterator: WebSocketInboundMessageStream.AsyncIterator

        init(_ iterator: WebSocketInboundMessageStream.AsyncIterator) {
            self.iterator = iterator
        }

        var reader: WebSocketReader {
            WebSocketReader { try await self.next() }
        }

        private func next() async throws -> WebSocketMessage? {
            switch try await iterator.next() {
            case .text(let text): .text(text)
            case .binary(let buffer): .binary(Data(copying: buffer))
            case nil: nil
            }
        }
    }

    /// The close code inside swift-websocket's internal `close(code)` error, which it throws when it closed the
    /// socket itself (bad UTF-8, a message over the limit, a protocol error). The error type is not public, so
    /// its one associated value is read by reflection.
    private static func libraryCloseCode(in error: any Error) -> WebSocketCloseCode? {
        let mirror = Mirror(reflecting: error)
        guard mirror.displayStyle == .enum, let child = mirror.children.first, child.label == "close",
            let code = child.value as? WebSocketErrorCode
        else { return nil }
        return closeCode(code)
    }

    private static func closeCode(_ code: WebSocketErrorCode) -> WebSocketCloseCode {
        WebSocketCloseCode(rawValue: UInt16(webSocketErrorCode: code))
    }

    // MARK: The upgrade

    /// The upgrade request's head: the prepared request's fields (except those the upgrader writes itself), `Host`.
    private static func requestHead(_ request: Request, host: String, port: Int, usesTLS: Bool) -> HTTPRequestHead {
        var headers = NIOHTTP1.HTTPHeaders()
        let hostField = host.contains(":") ? "[\(host)]" : host
        let defaultPort = usesTLS ? 443 : 80
        headers.add(name: "Host", value: port == defaultPort ? hostField : "\(hostField):\(port)")
        let reserved: Set<String> = [
            "host", "connection", "upgrade", "sec-websocket-key", "sec-websocket-version", "content-length",
            "transfer-encoding",
        ]
        for field in request.headers where !reserved.contains(field.name.lowercased()) {
            headers.add(name: field.name, value: field.value)
        }
        var target = request.url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        return HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
    }

    /// Sets up a new channel: TLS when asked, HTTP/1.1 with the WebSocket upgrader, and for a refusal a handler
    /// that collects the response.
    private static func configure(
        _ channel: any Channel, head: HTTPRequestHead, tls: (TLSConfiguration, host: String)?, maximumMessageSize: Int,
        keepAliveInterval: Duration?, inbox: WebSocketInbox, deadline: HandshakeDeadline
    ) throws -> EventLoopFuture<Upgrade> {
        if let (configuration, tlsHost) = tls {
            let context = try NIOSSLContext(configuration: configuration)
            let serverName = isIPAddress(tlsHost) ? nil : tlsHost
            // Last: behind a proxy tunnel's handler (SOCKS5 stays in the pipeline), first on a direct connection.
            try channel.pipeline.syncOperations.addHandler(
                try NIOSSLClientHandler(context: context, serverHostname: serverName), position: .last)
        }
        // NIO's error handler answers a frame the decoder refuses (over the size limit: 1009; malformed: 1002) with
        // the right close code and closes the connection; swift-websocket's handler would send 1011 for them.
        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
            maxFrameSize: maximumMessageSize, enableAutomaticErrorHandling: true
        ) { channel, responseHead in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(FrameRecorder(inbox: inbox))
                if let interval = keepAliveInterval {
                    try channel.pipeline.syncOperations.addHandler(KeepAliveHandler(interval: interval, inbox: inbox))
                }
                let asyncChannel = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(
                    wrappingChannelSynchronously: channel)
                return Upgrade.upgraded(asyncChannel, responseHead)
            }
        }
        let upgradeConfiguration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
            upgradeRequestHead: head, upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeCompletedFuture {
                    let promise = channel.eventLoop.makePromise(of: RefusedResponse.self)
                    try channel.pipeline.syncOperations.addHandler(RefusedUpgradeCollector(promise: promise))
                    return Upgrade.refused(promise.futureResult)
                }
            })
        var configuration = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgradeConfiguration)
        configuration.leftOverBytesStrategy = .forwardBytes
        let upgrade = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
            configuration: configuration)
        guard let end = deadline.end else { return upgrade }
        let timer = channel.eventLoop.scheduleTask(deadline: end) {
            deadline.expire()
            channel.close(promise: nil)
        }
        upgrade.whenComplete { result in
            if case .success(.refused(let refusal)) = result {
                refusal.whenComplete { _ in timer.cancel() }
            } else {
                timer.cancel()
            }
        }
        return upgrade
    }

    private static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    private static func response(_ head: HTTPResponseHead, url: URL) -> HTTPResponse {
        HTTPResponse(
            statusCode: Int(head.status.code),
            headers: Ferry.HTTPHeaders(head.headers.map { HTTPHeader(name: $0.name, value: $0.value) }),
            url: WebSocketHandshake.webSocketURL(url), httpVersion: "HTTP/\(head.version.major).\(head.version.minor)")
    }

    /// A connection or handshake failure as a ``FerryError``: SwiftNIO's socket and TLS errors as for a request on
    /// AsyncHTTPClient (a name that does not resolve is `hostNotFound`, a server that closes or resets the connection
    /// before its answer `connectionLost`), anything else (an upgrade the engine rejects) an invalid response.
    private static func connectionError(_ error: any Error, request: Request) -> FerryError {
        // Cancelled first: a proxy's tunnel fails with its own error when the cancelled task closes the channel.
        if error is CancellationError || Task.isCancelled { return FerryError(.cancelled, request: request) }
        if let error = error as? FerryError { return error.adding(request: request, response: nil, body: nil) }
        var failure =
            FerryError.mappingNIO(error)
            ?? FerryError(.transport(.invalidResponse), detail: nil, underlyingError: error)
        failure.request = request
        return failure
    }
}
#endif
