import Ferry
import Foundation

/// One run of `ferry URL …`: the options, the resolved request and where output goes.
struct Invocation {
    let options: Options
    let plan: RequestPlan
    let layout: Layout
    /// `--cache DIR`'s cache on disk.
    var cache: HTTPCache? = nil
    /// `--session`'s cookies.
    var cookieJar: CookieJar? = nil
    /// The transport `--proxy`, `--unix-socket` and the TLS flags ask for; the session's default without them.
    var transport: (any Transport)? = nil

    /// A session that adds nothing to the plan's request (no default headers, no validation: every status is an
    /// answer to print) and whose redirects and timeouts are the request's own, with `--cache`'s cache and
    /// `--session`'s cookie jar.
    func makeSession() -> Session {
        Session(
            configuration: .init(
                headers: [:], redirectPolicy: .never, validation: .none, transport: transport, cookieJar: cookieJar,
                cache: cache))
    }

    /// Prints the request as it would go out: what `--offline` does instead of sending it.
    func printOffline() {
        if options.isWebSocket {
            layout.printWebSocketRequest(
                plan, protocols: options.webSocketProtocols, cookies: cookieJar?.cookies(for: plan.url) ?? [],
                offline: true)
            return
        }
        let request = plan.request()
        layout.printRequest(
            plan, body: request.body, download: options.savesToFile, cookies: cookieJar?.cookies(for: plan.url) ?? [],
            offline: true)
    }

    /// Prints the request as the options ask, runs `body` with it on a session of its own, then shuts the session
    /// down.
    func withRequest(_ body: (Request, Session) async -> ExitCode) async -> ExitCode {
        let request = plan.request()
        layout.printRequest(
            plan, body: request.body, download: options.savesToFile, cookies: cookieJar?.cookies(for: plan.url) ?? [])
        let session = makeSession()
        let status = await body(request, session)
        await session.shutdown()
        return status
    }

    /// Runs the request in the way the options ask: a WebSocket, a download, a stream, or a whole response.
    func run() async -> ExitCode {
        if options.isWebSocket { return await WebSocketCommand(invocation: self).run() }
        if cache != nil, options.streams { layout.note("--cache: --stream goes to the server") }
        if options.savesToFile { return await DownloadCommand(invocation: self).run() }
        if options.streams { return await StreamCommand(invocation: self).run() }
        return await FetchCommand(invocation: self).run()
    }

    /// Fails the run for an error: its message on standard error, a hint in terms of `ferry`'s flags, and the
    /// matching exit status.
    func fail(_ error: FerryError) -> ExitCode {
        layout.printError(error.localizedDescription)
        if let hint = Self.hint(for: error, options: options) { layout.note(hint) }
        return ExitCode(error)
    }

    /// What to do about an error, said with the flags that change it.
    static func hint(for error: FerryError, options: Options) -> String? {
        switch error.reason {
        case .timedOut(.idle):
            let seconds = options.idleTimeout.map { CurlCommand.seconds($0) } ?? "60"
            return "if the server is just slow, raise --timeout (it is \(seconds) s)"
        case .timedOut(.total):
            let seconds = options.totalTimeout.map { CurlCommand.seconds($0) } ?? "?"
            return "if the exchange needs longer, raise --max-time (it is \(seconds) s)"
        case .tooManyRedirects:
            return "check for a redirect loop, or allow more with --max-redirects N (it is \(options.maxRedirects))"
        case .transport(.cannotConnect), .transport(.hostNotFound):
            if options.proxy != nil { return "check the proxy given to --proxy, then the URL's host and port" }
            return "check the URL's host and port; is the server running?"
        case .transport(.unsupportedHost):
            return "use a host name for the address (localhost rather than [::1])"
        case .bodyTooLarge:
            return "save a large body to a file with -d or -o FILE"
        default:
            return nil
        }
    }

    /// With `--check-status`, a 3xx (when redirects are not followed), 4xx or 5xx answer fails the run (after it
    /// was printed), with httpie's exit codes 3, 4 and 5.
    func checkStatus(_ head: HTTPResponse) -> ExitCode {
        guard options.checksStatus, let status = ExitCode(status: head.statusCode) else { return .success }
        if status == .redirection, options.follows { return .success }
        let phrase = HeadFormatter.reasonPhrase(head.statusCode)
        layout.printError("the server answered \(head.statusCode)\(phrase.isEmpty ? "" : " " + phrase)")
        return status
    }

    /// `1.23 kB in 12.3 ms (first byte after 10.1 ms)`, and with `--cache`, where the answer came from:
    /// ``cacheNote(_:)``.
    func summary(bytes: Int64, timeline: Timeline, cache: CacheStatus? = nil) -> String {
        var text = "\(Units.bytes(bytes)) in \(Units.duration(timeline.requestDuration))"
        if let latency = timeline.latency { text += " (first byte after \(Units.duration(latency)))" }
        return text + Self.cacheNote(cache)
    }

    /// `, from the server`, `, from the cache`, `, from the cache (stale)`, `, from the cache (revalidated)` or
    /// `, not in the cache`; nothing without a cache.
    static func cacheNote(_ status: CacheStatus?) -> String {
        switch status {
        case .hit: ", from the cache"
        case .staleHit: ", from the cache (stale)"
        case .revalidated: ", from the cache (revalidated)"
        case .unsatisfiable: ", not in the cache"
        case .miss: ", from the server"
        case nil: ""
        }
    }
}
