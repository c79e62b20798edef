import Ferry
import Foundation

/// One run of `ferry URL …`: the options, the resolved request and where output goes.
struct Invocation {
    let options: Options
    let plan: RequestPlan
    let layout: Layout
    /// `--cache DIR`'s cache on disk.
    var cache: HTTPCache? = nil

    /// A session that adds nothing to the plan's request (no default headers, no validation: every status is an
    /// answer to print) and whose redirects and timeouts are the request's own, with `--cache`'s cache.
    func makeSession() -> Session {
        Session(configuration: .init(headers: [:], redirectPolicy: .never, validation: .none, cache: cache))
    }

    /// Prints the request as the options ask, runs `body` with it on a session of its own, then shuts the session
    /// down.
    func withRequest(_ body: (Request, Session) async -> ExitCode) async -> ExitCode {
        let request = plan.request()
        layout.printRequest(plan, body: request.body)
        let session = makeSession()
        let status = await body(request, session)
        await session.shutdown()
        return status
    }

    /// Runs the request in the way the options ask: a download, a stream, or a whole response.
    func run() async -> ExitCode {
        if cache != nil, options.streams { layout.note("--cache: --stream goes to the server") }
        if options.output != nil { return await DownloadCommand(invocation: self).run() }
        if options.streams { return await StreamCommand(invocation: self).run() }
        return await FetchCommand(invocation: self).run()
    }

    /// Fails the run for an error: its message on standard error, and the matching exit status.
    func fail(_ error: FerryError) -> ExitCode {
        layout.printError(error.localizedDescription)
        if let suggestion = error.recoverySuggestion { layout.note(suggestion) }
        return ExitCode(error)
    }

    /// With `--check-status`, a 3xx, 4xx or 5xx answer fails the run (after it was printed).
    func checkStatus(_ head: HTTPResponse) -> ExitCode {
        guard options.checksStatus, let status = ExitCode(status: head.statusCode) else { return .success }
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
