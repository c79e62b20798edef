import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#else
import Security
#endif

/// The default transport: URLSession, driven through its delegate API.
///
/// It avoids what breaks in FoundationNetworking on Linux (see the README's "Linux: what Ferry does about FoundationNetworking"): it never uses
/// URLSession's async `data(for:)` (which deadlocks when cancellation races completion), cancels each task at
/// most once and never after completion, answers every authentication challenge (a 401 would otherwise hang; on
/// Apple platforms the TLS challenges are answered from the transport's ``TLSPolicy``),
/// lets Ferry follow redirects, disables URLSession's cache and cookies, and never creates a task on an invalidated session.
public final class URLSessionTransport: Transport {
    private let session: URLSession
    let router: URLSessionEventRouter
    /// Where tasks are made and resumed, off the cooperative pool.
    let taskQueue = DispatchQueue(label: "Ferry.URLSessionTransport.tasks")
    private let lifecycle = Locked(Lifecycle())
    /// How far a compressed body may expand.
    public let decompressionLimit: DecompressionLimit

    /// Orders task creation against invalidation without holding a lock while Foundation creates a task (which
    /// waits for the session's busy work queue): creators are counted, and invalidation waits for the last one.
    private struct Lifecycle {
        var invalidated = false
        var creating = 0
        var invalidationPending = false
    }

    /// Whether and through which proxy requests go; ``ProxyPolicy/environment`` unless given.
    public let proxy: ProxyPolicy
    /// The environment's proxy variables, read once, for ``ProxyPolicy/environment``: libcurl reads them for the
    /// requests, and Ferry's WebSocket engine takes the same proxies.
    let environmentProxies: EnvironmentProxySettings

    /// Creates a transport with its own URLSession, proxied as the environment says
    /// (``ProxyPolicy/environment``: on Linux libcurl reads the variables itself; on Apple platforms the system's
    /// proxy settings apply).
    /// - Parameters:
    ///   - configuration: The URLSession configuration (copied); `.ephemeral` by default. Ferry turns off its URL
    ///     cache and its cookie handling (``Session/Configuration/cookieJar`` handles cookies on every transport).
    ///   - decompressionLimit: How far a compressed body may expand before the request fails with
    ///     ``FerryError/Reason/decompressionLimitExceeded``; ``DecompressionLimit/default`` by default.
    public convenience init(
        configuration: URLSessionConfiguration = .ephemeral, decompressionLimit: DecompressionLimit = .default
    ) {
        self.init(copying: configuration, decompressionLimit: decompressionLimit, proxy: .environment, settings: nil)
    }

    /// Creates a transport with its own URLSession and Ferry's policies for proxies, TLS and connections, or fails
    /// when URLSession cannot honour them.
    ///
    /// - Proxies: on Linux, FoundationNetworking ignores `connectionProxyDictionary`, and libcurl reads the proxy
    ///   variables of the environment on its own: ``ProxyPolicy/environment`` works (with curl's rules),
    ///   ``ProxyPolicy/direct`` works while no proxy variable is set, and a given proxy cannot be used. On Apple
    ///   platforms every policy but an HTTP proxy with credentials is set in `connectionProxyDictionary`.
    /// - TLS: on Apple platforms the delegate answers the server trust and client certificate challenges from the
    ///   policy (its roots, then its pins; a client identity as a PKCS#12 bundle, not PEM), and the session's
    ///   `tlsMinimumSupportedProtocolVersion` is its minimum version (one for the whole session). On Linux only
    ///   ``TLSPolicy/default``: FoundationNetworking offers no trust or identity hook (no TLS challenge reaches the
    ///   delegate, and `SSL_CERT_FILE` has no effect).
    /// - Connections: ``ConnectionPolicy/maximumConnectionsPerHost`` becomes `httpMaximumConnectionsPerHost`;
    ///   URLSession has no setting for an idle connection's lifetime or the HTTP version.
    /// - Parameters:
    ///   - configuration: The URLSession configuration (copied); `.ephemeral` by default.
    ///   - decompressionLimit: How far a compressed body may expand; ``DecompressionLimit/default`` by default.
    ///   - proxy: Whether and through which proxy requests go; ``ProxyPolicy/environment`` by default.
    ///   - tls: Whom TLS connections trust; ``TLSPolicy/default`` by default.
    ///   - connections: How many connections per host; ``ConnectionPolicy/default`` by default.
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` for a setting this platform's URLSession
    ///   cannot honour.
    public convenience init(
        configuration: URLSessionConfiguration = .ephemeral, decompressionLimit: DecompressionLimit = .default,
        proxy: ProxyPolicy = .environment, tls: TLSPolicy = .default, connections: ConnectionPolicy = .default
    ) throws(FerryError) {
        #if canImport(FoundationNetworking)
        guard tls.isDefault else {
            let remedy =
                "FoundationNetworking offers no TLS trust or identity hook. Use AsyncHTTPClientTransport (the "
                + "AsyncHTTPClient trait); for an extra root only, adding it to the system's CA store also works."
            throw FerryError(.unsupportedSetting(setting: "a TLSPolicy on URLSession on Linux", remedy: remedy))
        }
        #endif
        let trust = try URLSessionTrust(policy: tls)
        try connections.validate()
        let unsupported = [
            connections.idleConnectionTimeout.map { _ in "ConnectionPolicy.idleConnectionTimeout" },
            connections.httpVersions == .http1Only ? "ConnectionPolicy.httpVersions = .http1Only" : nil,
        ].compactMap { $0 }
        if let setting = unsupported.first {
            throw FerryError(
                .unsupportedSetting(
                    setting: "\(setting) on URLSession",
                    remedy: "URLSession has no such setting. Leave it nil (the engine's default), or use "
                        + "AsyncHTTPClientTransport (the AsyncHTTPClient trait)."))
        }
        let settings = try Self.proxySettings(for: proxy, environment: EnvironmentProxySettings())
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        if let maximum = connections.maximumConnectionsPerHost {
            configuration.httpMaximumConnectionsPerHost = maximum
        }
        #if !canImport(FoundationNetworking)
        // Raised, never lowered: a configuration that already asks for more keeps it.
        let oldest: tls_protocol_version_t = tls.minimumVersion == .tls1_3 ? .TLSv13 : .TLSv12
        if configuration.tlsMinimumSupportedProtocolVersion.rawValue < oldest.rawValue {
            configuration.tlsMinimumSupportedProtocolVersion = oldest
        }
        #endif
        self.init(
            copying: configuration, decompressionLimit: decompressionLimit, proxy: proxy, settings: settings,
            trust: trust)
    }

    /// The one initializer: `settings` goes to `connectionProxyDictionary` unless `nil`.
    private init(
        copying configuration: URLSessionConfiguration, decompressionLimit: DecompressionLimit, proxy: ProxyPolicy,
        settings: [AnyHashable: Any]?, environment: EnvironmentProxySettings? = nil,
        trust: URLSessionTrust = .system
    ) {
        self.decompressionLimit = decompressionLimit
        self.proxy = proxy
        environmentProxies =
            proxy == .environment ? environment ?? EnvironmentProxySettings() : .init(environment: [:])
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Cookies are the session's `CookieJar`'s business, on every transport: URLSession neither stores nor sends
        // any (`.ephemeral` would otherwise keep a private store, `.default` the shared one).
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        if let settings { configuration.connectionProxyDictionary = settings }
        let queue = OperationQueue()
        queue.name = "Ferry.URLSessionTransport"
        queue.maxConcurrentOperationCount = 1
        router = URLSessionEventRouter(trust: trust)
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    /// A transport whose ``ProxyPolicy/environment`` policy reads the given variables instead of the process's, for
    /// what Ferry decides itself (a WebSocket's proxy); libcurl still reads the process's for requests. For tests:
    /// the environment is the whole process's.
    convenience init(proxyEnvironment: EnvironmentProxySettings) {
        self.init(
            copying: .ephemeral, decompressionLimit: .default, proxy: .environment, settings: nil,
            environment: proxyEnvironment)
    }

    /// What `connectionProxyDictionary` gets for `policy` (`nil`: left as it is), or why it cannot be honoured.
    static func proxySettings(
        for policy: ProxyPolicy, environment: EnvironmentProxySettings
    ) throws(FerryError) -> [AnyHashable: Any]? {
        #if canImport(FoundationNetworking)
        switch policy {
        case .environment:
            return nil
        case .direct:
            guard environment.namesAProxy else { return nil }
            let names = environment.variableNames.joined(separator: " and ")
            throw FerryError(
                .unsupportedSetting(
                    setting:
                        "ProxyPolicy.direct while \(names) \(environment.variableNames.count == 1 ? "is" : "are") set",
                    remedy:
                        "On Linux, libcurl reads \(names) itself and URLSession cannot tell it otherwise: unset it, "
                        + "list the hosts in NO_PROXY, or use AsyncHTTPClientTransport (the AsyncHTTPClient trait)."))
        case .http, .socks5:
            throw FerryError(
                .unsupportedSetting(
                    setting: "the proxy \(policy) on URLSession on Linux",
                    remedy: "FoundationNetworking ignores connectionProxyDictionary. Use AsyncHTTPClientTransport "
                        + "(the AsyncHTTPClient trait), or set http_proxy/HTTPS_PROXY before the process starts and "
                        + "keep ProxyPolicy.environment."))
        }
        #else
        switch policy {
        case .environment:
            return nil
        case .direct:
            return [:]
        case .http(let host, let port, let credentials):
            guard credentials == nil else {
                throw FerryError(
                    .unsupportedSetting(
                        setting: "proxy credentials on URLSession",
                        remedy: "URLSession asks for proxy credentials through its delegate, which Ferry does not "
                            + "answer yet. Use a proxy without credentials, or AsyncHTTPClientTransport."))
            }
            return [
                "HTTPEnable": 1, "HTTPProxy": host, "HTTPPort": port,
                "HTTPSEnable": 1, "HTTPSProxy": host, "HTTPSPort": port,
            ]
        case .socks5(let host, let port):
            return ["SOCKSEnable": 1, "SOCKSProxy": host, "SOCKSPort": port]
        }
        #endif
    }

    deinit {
        invalidate()
    }

    /// Sends `request` with a URLSession data task; returns when the head arrived.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - context: Where activity and progress go, and how Ferry stops the request.
    /// - Returns: The head, and the body as it arrives.
    /// - Throws: ``FerryError`` or `URLError`.
    public func send(_ request: Request, context: TransportContext) async throws -> TransportResponse {
        if let scheme = request.url.scheme, URL.isUnixSocketScheme(scheme) {
            throw FerryError(
                .unsupportedSetting(
                    setting: "a Unix domain socket (\(scheme)) on URLSession",
                    remedy: "URLSession reaches hosts over TCP only. Use AsyncHTTPClientTransport (the AsyncHTTPClient "
                        + "trait), which reaches http+unix URLs."), request: request)
        }
        let urlRequest = Self.urlRequest(for: request)
        let file = Self.uploadFile(of: request)
        let call = URLSessionCall(context: context, decompressionLimit: decompressionLimit)
        context.onStop { [call] error in call.stop(error) }
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: URLSessionCall.HeadContinuation) in
                // Creating and resuming a task wait for FoundationNetworking's work queue (`sync`): never on the
                // caller's thread, which belongs to Swift's cooperative pool (two threads on a two-core machine).
                taskQueue.async { [self] in
                    let task = makeTask { session -> URLSessionTask in
                        file.map { session.uploadTask(with: urlRequest, fromFile: $0) }
                            ?? session.dataTask(with: urlRequest)
                    }
                    guard let task else {
                        return continuation.resume(throwing: FerryError(.sessionShutDown))
                    }
                    router.register(call, for: task.taskIdentifier)
                    call.start(task, continuation: continuation)
                }
            }
        } onCancel: {
            call.stop(FerryError(.cancelled))
        }
        return TransportResponse(
            head: head, body: request.method == .head ? .empty : ResponseBody(URLSessionBody(call: call)))
    }

    /// A new task, or `nil` once the session is invalidated: creating a task on an invalidated URLSession is a
    /// fatal error in Foundation.
    func makeTask<Made: URLSessionTask>(_ make: (URLSession) -> Made) -> Made? {
        let allowed = lifecycle.withLock { state in
            guard !state.invalidated else { return false }
            state.creating += 1
            return true
        }
        guard allowed else { return nil }
        let task = make(session)
        let invalidateNow = lifecycle.withLock { state in
            state.creating -= 1
            guard state.invalidationPending, state.creating == 0 else { return false }
            state.invalidationPending = false
            return true
        }
        if invalidateNow { session.finishTasksAndInvalidate() }
        return task
    }

    /// Lets running tasks finish, then invalidates the URLSession.
    public func shutdown() async {
        invalidate()
    }

    private func invalidate() {
        let now = lifecycle.withLock { state in
            guard !state.invalidated else { return false }
            state.invalidated = true
            guard state.creating == 0 else {
                state.invalidationPending = true
                return false
            }
            return true
        }
        if now { session.finishTasksAndInvalidate() }
    }

    /// The file an upload task sends: a file body (Ferry spools stream bodies to one before they get here).
    static func uploadFile(of request: Request) -> URL? {
        guard let body = request.body, case .file(let url) = body.content else { return nil }
        return url
    }

    static func urlRequest(for request: Request) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for header in request.headers {
            urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
        }
        if let body = request.body, case .data(let data) = body.content {
            urlRequest.httpBody = data
        }
        if let count = request.body?.count, uploadFile(of: request) != nil {
            urlRequest.setValue(String(count), forHTTPHeaderField: "Content-Length")
        }
        // Foundation truncates this to whole seconds and fails at once under one second; Ferry's own timer
        // enforces the exact idle timeout, this is only a backstop.
        let idle = request.idleTimeout.map { Double($0.components.seconds) + 2 } ?? 3600
        urlRequest.timeoutInterval = max(2, idle)
        return urlRequest
    }
}
