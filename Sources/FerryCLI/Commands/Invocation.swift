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
        if cache != nil, options.output != nil || options.streams {
            layout.note("--cache: -o and --stream go to the server; only a response read whole is cached")
        }
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

    /// `1.23 kB in 12.3 ms (first byte after 10.1 ms)`, and with `--cache`, where the answer came from
    /// (`, from the cache`, `, revalidated`, `, stored` or `, not stored`).
    func summary(bytes: Int64, timeline: Timeline, cache: CacheStatus? = nil) -> String {
        var text = "\(Units.bytes(bytes)) in \(Units.duration(timeline.requestDuration))"
        if let latency = timeline.latency { text += " (first byte after \(Units.duration(latency)))" }
        switch cache {
        case .hit: text += ", from the cache"
        case .staleHit: text += ", from the cache (stale)"
        case .revalidated: text += ", from the cache (revalidated)"
        case .unsatisfiable: text += ", not in the cache"
        case .miss: text += ", from the server"
        case nil: break
        }
        return text
    }
}
