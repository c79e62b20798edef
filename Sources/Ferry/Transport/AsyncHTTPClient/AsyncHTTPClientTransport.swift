#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Ferry on swift-server/async-http-client, the engine server Swift trusts: real back-pressure (a slow stream
/// consumer pauses the socket read), streamed request bodies, HTTP/1.1 and HTTP/2 connection pooling.
///
/// Available with the package trait `AsyncHTTPClient`. Ferry keeps doing what it does on every transport: it
/// follows redirects with its own policy, enforces its own timeouts, counts and times the transfer.
///
/// ```swift
/// let session = Session(configuration: .init(transport: AsyncHTTPClientTransport()))
/// // … when done:
/// await session.shutdown()
/// ```
///
/// Lifecycle: a transport made with ``init(configuration:)`` owns its `HTTPClient`. ``Session/shutdown(cancellingInFlightRequests:)``
/// lets in-flight requests finish (or cancels them), then shuts the client down; a transport released without that
/// shuts its client down in the background, so no assertion fires. A transport made with ``init(client:)`` uses the
/// caller's client (such as `HTTPClient.shared`) and never shuts it down. Ferry's redirect policy needs the client's
/// own redirect following off (`redirectConfiguration: .disallow`, as ``defaultConfiguration`` has); a client that
/// follows redirects itself (`HTTPClient.shared` does) answers with the final response and Ferry's redirect rules
/// do not apply.
///
/// Proxies: ``init(configuration:)`` follows the environment as curl does (``ProxyPolicy/environment``), as
/// ``URLSessionTransport`` does, unless the configuration names a proxy itself;
/// ``init(configuration:proxy:tls:connections:)`` takes a ``ProxyPolicy``. A request through an HTTP proxy goes through a `CONNECT` tunnel, `http` URLs included
/// (the engine's way). Each proxy in use gets a client of its own, made on first use and shut down with the
/// transport. A transport made with ``init(client:)`` leaves proxies to that client's configuration.
///
/// TLS and connections: ``init(configuration:proxy:tls:connections:)`` takes a ``TLSPolicy`` (trust roots, client identity, minimum version,
/// per-host policies; each per-host policy in use gets a client of its own too) and a ``ConnectionPolicy``.
public final class AsyncHTTPClientTransport: Transport {
    /// The configuration an owned client gets: no redirect following (Ferry's policy decides), decompression of
    /// gzip and deflate with a ratio limit of 100 (a larger ratio fails with
    /// ``FerryError/Reason/decompressionLimitExceeded``), 10 s connect timeout, and no retry of a failed connection
    /// attempt: a refused connection fails at once, as it does on ``URLSessionTransport``, instead of being retried
    /// with back-off until the connect timeout (`connectionPool.retryConnectionEstablishment`, which AsyncHTTPClient
    /// turns on by default; set it back to `true` for that behaviour). The engine's own request span is off
    /// (`tracing.tracer = nil`): with the `Tracing` trait Ferry makes the client span itself, one per request with
    /// its redirects and retries as events, so a bootstrapped tracer does not get two spans per request (and
    /// without a tracer, the engine does not build a no-op span and its attributes for every request).
    public static var defaultConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10)),
            decompression: .enabled(limit: .ratio(100)))
        configuration.httpVersion = .automatic
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.tracing.tracer = nil
        return configuration
    }

    /// The client requests without a proxy go through.
    public let client: HTTPClient
    private let ownsClient: Bool
    private let isShutDown = Locked(false)
    /// The policy Ferry applies per request; `nil` when the client's own configuration decides.
    let proxy: ProxyPolicy?
    /// The TLS policy whose ``TLSPolicy/perHost`` entries pick a client per host; `nil` when it has none (the
    /// policy, if any, is ``client``'s own configuration).
    let perHostTLS: TLSPolicy?
    /// Whether a request may need another client than ``client``: a proxy that depends on the URL or is always
    /// used, or per-host TLS. Decided once, so that a transport without either does no lookup per request.
    private let choosesClientPerRequest: Bool
    /// The environment's proxy variables, read once, for ``ProxyPolicy/environment``.
    let environmentProxies: EnvironmentProxySettings
    /// The configuration another client starts from.
    let configuration: HTTPClient.Configuration
    /// The event loops of ``client``'s group, which every other client of the transport shares.
    private let loops: [any EventLoop]
    /// A client per proxy and per-host TLS policy in use besides ``client``'s, made on first use.
    private let otherClients = Locked([ClientKey: HTTPClient]())

    /// What sets a client apart: the proxy it goes through and the TLS policy of its connections.
    private struct ClientKey: Hashable {
        var proxy: ProxyServer?
        var tls: TLSPolicy?
    }

    /// Creates a transport with a client of its own, shut down with the session, proxied as the environment says
    /// (``ProxyPolicy/environment``) unless `configuration.proxy` names a proxy for every request. TLS is the
    /// configuration's (`tlsConfiguration`, or the system's defaults).
    /// - Parameter configuration: The client's configuration; keep `redirectConfiguration: .disallow`.
    public init(configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.defaultConfiguration) {
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        ownsClient = true
        proxy = configuration.proxy == nil ? .environment : nil
        perHostTLS = nil
        environmentProxies = configuration.proxy == nil ? EnvironmentProxySettings() : .init(environment: [:])
        choosesClientPerRequest = environmentProxies.namesAProxy
        self.configuration = configuration
        loops = Array(client.eventLoopGroup.makeIterator())
    }

    /// Creates a transport with a client of its own and Ferry's policies for proxies, TLS and connections.
    /// - Parameters:
    ///   - configuration: The client's configuration; keep `redirectConfiguration: .disallow`, and leave its
    ///     `proxy` and `tlsConfiguration` `nil`: the policies decide.
    ///   - proxy: Whether and through which proxy requests go; ``ProxyPolicy/environment`` by default.
    ///   - tls: Whom TLS connections trust and how they identify themselves, per host if need be;
    ///     ``TLSPolicy/default`` by default.
    ///   - connections: How many connections per host, how long an idle one stays open, which HTTP versions;
    ///     ``ConnectionPolicy/default`` (the configuration's own values) by default.
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` when the configuration sets a proxy or
    ///   TLS too, a value is out of range, or a certificate, key or bundle of `tls` cannot be read.
    public convenience init(
        configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.defaultConfiguration,
        proxy: ProxyPolicy = .environment, tls: TLSPolicy = .default, connections: ConnectionPolicy = .default
    ) throws(FerryError) {
        guard configuration.proxy == nil else {
            throw FerryError(
                .unsupportedSetting(
                    setting: "a ProxyPolicy beside HTTPClient.Configuration.proxy",
                    remedy: "Set the proxy in one place: pass the ProxyPolicy and leave the configuration's proxy nil.")
            )
        }
        guard configuration.tlsConfiguration == nil || tls.isDefault else {
            throw FerryError(
                .unsupportedSetting(
                    setting: "a TLSPolicy beside HTTPClient.Configuration.tlsConfiguration",
                    remedy:
                        "Set TLS in one place: pass the TLSPolicy and leave the configuration's tlsConfiguration nil."
                ))
        }
        switch proxy {
        case .http(_, let port, _), .socks5(_, let port):
            guard (1...65535).contains(port) else {
                throw FerryError(
                    .unsupportedSetting(setting: "the proxy \(proxy)", remedy: "Give a port from 1 to 65535."))
            }
        case .direct, .environment:
            break
        }
        try connections.validate()
        var configuration = configuration
        if !tls.isDefault {
            // Every policy is read now, so a certificate that cannot be read fails here, not at a request.
            configuration.tlsConfiguration = try tls.policy(for: "").nioConfiguration()
            for policy in tls.perHost.values {
                _ = try policy.policy(for: "").nioConfiguration()
            }
        }
        if let maximum = connections.maximumConnectionsPerHost {
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = maximum
        }
        if let timeout = connections.idleConnectionTimeout {
            let (seconds, attoseconds) = timeout.components
            configuration.connectionPool.idleTimeout = .nanoseconds(
                seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
        switch connections.httpVersions {
        case .automatic: configuration.httpVersion = .automatic
        case .http1Only: configuration.httpVersion = .http1Only
        }
        self.init(configuration: configuration, policy: proxy, perHostTLS: tls.perHost.isEmpty ? nil : tls)
    }

    /// A transport with policies, and for ``ProxyPolicy/environment`` the given variables instead of the
    /// process's (for tests: the environment is the whole process's). `configuration` already holds the TLS
    /// policy's own configuration; `perHostTLS` is the policy when it has per-host entries.
    init(
        configuration: HTTPClient.Configuration, policy: ProxyPolicy, perHostTLS: TLSPolicy? = nil,
        environment: EnvironmentProxySettings? = nil
    ) {
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        ownsClient = true
        proxy = policy
        self.perHostTLS = perHostTLS
        environmentProxies =
            policy == .environment ? environment ?? EnvironmentProxySettings() : .init(environment: [:])
        choosesClientPerRequest =
            switch policy {
            case .direct: perHostTLS != nil
            case .environment: environmentProxies.namesAProxy || perHostTLS != nil
            case .http, .socks5: true
            }
        self.configuration = configuration
        loops = Array(client.eventLoopGroup.makeIterator())
    }

    /// Creates a transport on a caller's client, which Ferry never shuts down; the client's configuration decides
    /// about proxies and TLS.
    /// - Parameter client: The client, for instance `HTTPClient.shared`.
    public init(client: HTTPClient) {
        self.client = client
        ownsClient = false
        proxy = nil
        perHostTLS = nil
        choosesClientPerRequest = false
        environmentProxies = .init(environment: [:])
        configuration = AsyncHTTPClientTransport.defaultConfiguration
        loops = Array(client.eventLoopGroup.makeIterator())
    }

    deinit {
        let others = otherClients.withLock { Array($0.values) }
        for client in others { client.shutdown { _ in } }
        guard ownsClient, !isShutDown.withLock({ $0 }) else { return }
        // The session was released without `shutdown()`: close the client in the background, so it never reaches
        // its deinit still running.
        client.shutdown { _ in }
    }

    /// The client for `request`: ``client``, or the one for the proxy the policy names and the TLS policy of the
    /// request's host.
    private func client(for request: Request) throws(FerryError) -> (client: HTTPClient, proxy: ProxyServer?) {
        guard choosesClientPerRequest else { return (client, nil) }
        var key = ClientKey()
        if let proxy {
            do throws(FerryError) {
                key.proxy = try proxy.server(for: request.url, environment: environmentProxies)
            } catch {
                throw FerryError(error.reason, request: request)
            }
        }
        if let perHostTLS, let host = request.url.host(percentEncoded: false) {
            key.tls = perHostTLS.perHostPolicy(for: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        }
        guard key.proxy != nil || key.tls != nil else { return (client, nil) }
        let made: HTTPClient = try otherClients.withLock { clients throws(FerryError) in
            if let existing = clients[key] { return existing }
            var configuration = configuration
            if let policy = key.tls { configuration.tlsConfiguration = try policy.nioConfiguration() }
            if let server = key.proxy {
                switch server.kind {
                case .http:
                    configuration.proxy = .server(
                        host: server.host, port: server.port,
                        authorization: server.credentials.map { .basic(username: $0.username, password: $0.password) })
                case .socks5:
                    configuration.proxy = .socksServer(host: server.host, port: server.port)
                }
            }
            let made = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients[key] = made
            return made
        }
        return (made, key.proxy)
    }

    /// `true`: stream bodies are sent as they are produced, chunked when their length is unknown.
    public var streamsRequestBodies: Bool { true }

    /// Sends `request` and returns when the head arrived; the body is read as the pipeline pulls it, so a slow
    /// consumer pauses the socket read.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - context: Where activity and progress go, and how Ferry stops the request.
    /// - Returns: The head (with the HTTP version) and the body.
    /// - Throws: ``FerryError``.
    public func send(_ request: Request, context: TransportContext) async throws -> TransportResponse {
        guard !isShutDown.withLock({ $0 }) else { throw FerryError(.sessionShutDown, request: request) }
        let (client, proxyServer) = try client(for: request)
        var headers = NIOHTTP1.HTTPHeaders()
        headers.reserveCapacity(request.headers.count)
        for header in request.headers {
            headers.add(name: header.name, value: header.value)
        }
        if let scheme = request.url.scheme, URL.isUnixSocketScheme(scheme), !headers.contains(name: "Host") {
            // The engine sends no Host over a Unix socket, and HTTP/1.1 requires one: `localhost`, as curl sends.
            headers.add(name: "Host", value: "localhost")
        }
        let method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        while true {
            do {
                switch request.body?.content {
                case nil:
                    return try await exchange(
                        request, method: method, headers: headers, body: nil, client: client, context: context)
                case .data(let data):
                    // Copied into the engine's buffers once, lazily, in chunks: never a second whole copy.
                    return try await exchange(
                        request, method: method, headers: headers, body: .bytes(data), client: client,
                        context: context)
                case .file, .stream:
                    return try await stream(
                        request, method: method, headers: headers, client: client, context: context)
                }
            } catch let error as FerryError where Self.waitedForBusyConnections(error) {
                // The engine gives up on a request that waited for a connection longer than its connect timeout,
                // even when every connection to the host is busy serving others (a small
                // `maximumConnectionsPerHost`, slow responses). Nothing was sent and the host answers: the request
                // queues again, so that its own idle and total timeouts bound the wait, as on URLSession.
                if let stop = context.stopError { throw stop }
                if Task.isCancelled { throw FerryError(.cancelled, request: request) }
                if case .stream? = request.body?.content { throw error }
                continue
            } catch let error as FerryError {
                throw proxyServer.map { Self.restating(error, through: $0) } ?? error
            }
        }
    }

    /// `error` for a request that went through `proxy`. A socket's own failure to connect (a `NIOConnectionError`, an
    /// `IOError`) is the proxy's: the engine connects only to the proxy. The engine's connect timeout covers the
    /// proxy's answer and the server's TLS too, so it says only that the proxy or the server did not answer in time.
    /// The engine's other errors are left as they are.
    static func restating(_ error: FerryError, through proxy: ProxyServer) -> FerryError {
        switch error.underlyingError {
        case let engine as HTTPClientError where engine == .connectTimeout: error.timingOutThrough(proxy)
        case is HTTPClientError: error
        default: error.reachingProxy(proxy)
        }
    }

    /// Whether `error` is the engine giving up on a request that waited for one of the host's busy connections: its
    /// pool reports `getConnectionFromPoolTimeout` only while it has active connections and no failed attempt to
    /// connect (otherwise the connect failure, or `connectTimeout`, is the error).
    static func waitedForBusyConnections(_ error: FerryError) -> Bool {
        (error.underlyingError as? HTTPClientError) == .getConnectionFromPoolTimeout
    }

    /// A request whose body (if any) is in memory, on the engine's delegate API: no task of Ferry's, and stopped
    /// by cancelling the engine's own task.
    private func exchange(
        _ request: Request, method: NIOHTTP1.HTTPMethod, headers: NIOHTTP1.HTTPHeaders, body: HTTPClient.Body?,
        client: HTTPClient, context: TransportContext
    ) async throws -> TransportResponse {
        let outbound: HTTPClient.Request
        do {
            outbound = try HTTPClient.Request(url: request.url, method: method, headers: headers, body: body)
        } catch {
            throw FerryError.mappingAsyncHTTPClient(error)
        }
        let exchange = AsyncHTTPClientExchange(context: context, url: request.url, expectedUpload: request.body?.count)
        context.onStop { error in exchange.stop(error) }
        let preference = loop().map { HTTPClient.EventLoopPreference.delegate(on: $0) } ?? .indifferent
        let head = try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: AsyncHTTPClientExchange.HeadContinuation) in
                exchange.start(continuation) { [client] delegate in
                    client.execute(request: outbound, delegate: delegate, eventLoop: preference, deadline: nil)
                }
            }
        } onCancel: {
            exchange.stop(FerryError(.cancelled))
        }
        return TransportResponse(head: head, body: request.method == .head ? .empty : ResponseBody(exchange))
    }

    /// A request whose body is read from a file or produced as it goes, on the engine's async API (which pulls
    /// the body from an `AsyncSequence`), run through ``TransportContext/stoppable(_:)``.
    private func stream(
        _ request: Request, method: NIOHTTP1.HTTPMethod, headers: NIOHTTP1.HTTPHeaders, client: HTTPClient,
        context: TransportContext
    ) async throws -> TransportResponse {
        let counter = UploadCounter(context: context, expected: request.body?.count)
        var outbound = HTTPClientRequest(url: request.url.absoluteString)
        outbound.method = method
        outbound.headers = headers
        let (body, pump) = try Self.body(of: request, counter: counter)
        outbound.body = body
        let response: HTTPClientResponse
        do {
            response = try await context.stoppable { [client, outbound] in
                try await client.execute(outbound, deadline: .distantFuture)
            }
        } catch {
            pump?.stop()
            throw FerryError.mappingAsyncHTTPClient(error)
        }
        var fields = HTTPHeaders()
        for field in response.headers {
            fields.add(name: field.name, value: field.value)
        }
        let head = HTTPResponse(
            statusCode: Int(response.status.code), headers: fields, url: request.url,
            httpVersion: AsyncHTTPClientExchange.versionText(response.version))
        return TransportResponse(
            head: head, body: ResponseBody(AsyncHTTPClientBody(response.body, context: context, onEnd: pump?.stop)))
    }

    /// The event loop a request's delegate runs on, which the engine also prefers for its connection: the caller's
    /// own loop when it runs on one, else a loop chosen by the calling task, so that one task's successive requests
    /// keep to one loop and to the connections on it.
    ///
    /// The engine calls a delegate on the loop the request names and hops there from its connection's loop for
    /// each callback (the request written, the head, each body part, the end). `.indifferent` names the group's next
    /// loop, round robin: with two loops, every other sequential request hopped between threads for each callback.
    /// Keeping a task to one loop took Ferry's CPU per sequential request from 232 to 211 µs (medians; the raw
    /// engine's: 195 µs) and its context switches from 6.6 to 4.3 (Benchmarks/README, "The engine's event loop").
    /// - Returns: The loop, or `nil` for a group that lists none (then the engine chooses).
    func loop() -> (any EventLoop)? {
        guard loops.count > 1 else { return loops.first }
        if let current = loops.first(where: { $0.inEventLoop }) { return current }
        let seed = withUnsafeCurrentTask { $0?.hashValue } ?? 0
        return loops[Int(UInt(bitPattern: seed) % UInt(loops.count))]
    }

    /// Shuts an owned client down once in-flight requests are done; does nothing for a caller's client.
    public func shutdown() async {
        let first = isShutDown.withLock { shutDown in
            defer { shutDown = true }
            return !shutDown
        }
        guard first else { return }
        let others = otherClients.withLock { Array($0.values) }
        for client in others { try? await client.shutdown() }
        guard ownsClient else { return }
        try? await client.shutdown()
    }

    /// A file or stream body as the engine's async API takes it, counted as it is sent; a stream's is read through
    /// a pump, to be stopped when the request ends.
    private static func body(
        of request: Request, counter: UploadCounter
    ) throws(FerryError) -> (HTTPClientRequest.Body?, StreamBodyPump?) {
        switch request.body?.content {
        case nil, .data:
            return (nil, nil)
        case .file(let url):
            let size = try FileChunks(url: url).size
            return (.stream(FileByteBuffers(url: url, size: size, counter: counter), length: .known(size)), nil)
        case .stream(let source, let count):
            let pump = StreamBodyPump(source, counter: counter)
            pump.start()
            return (.stream(pump, length: count.map { .known($0) } ?? .unknown), pump)
        }
    }
}
#endif
