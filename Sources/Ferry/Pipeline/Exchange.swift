import Foundation

/// What one request's run has measured so far, carried through the pipeline and turned into the outcome's metrics
/// and timeline at the end.
///
/// A reference, so that the async frames of the pipeline and the transfer hold a pointer rather than its 264 bytes:
/// with it a value, every frame that held one (and the transfer's body, which carries it) overflowed the task
/// allocator's 1,000-byte slabs, a malloc each per request in a fresh task. `FerryPipeline` `GET-serializingData`
/// (`swift package benchmark --target FerryPipeline` in `Benchmarks/`): see the allocation row in Benchmarks/README.
///
/// `@unchecked Sendable`: it has one owner at a time. The task that opens the transfer makes it and passes it down
/// the pipeline; with the head it goes into the transfer's body, which the state machine hands, under its lock, to
/// the one task that reads the body (or drops it). Nothing reads it while another task may write it.
final class Exchange: @unchecked Sendable {
    let startDate = Date()
    let start: Moment
    /// The prepared request, once preparing succeeded.
    var request: Request?
    /// The final head, once it arrived.
    var head: HTTPResponse?
    var firstResponseByte: Moment?
    var urls: [URL] = []
    var bytesSent: Int64 = 0
    var bytesReceived: Int64 = 0
    var transactions: [TransactionMetrics] = []
    /// The request's entry in the session's timeout timer.
    var timeout: TimeoutScheduler.Registration?
    /// The attempt running, from 1.
    var attempt = 1
    /// The errors of the attempts that were retried, oldest first.
    var previousErrors: [FerryError] = []
    /// Whether a lost kept-alive connection was already retried (once per request).
    var retriedStaleConnection = false
    /// The requests handed to the transport, in order (attempts and redirects); the last one is still running
    /// while ``isHopOpen``. One list, whose first entry is inline: the request's frame holds one record, not two.
    var attempts = Timeline.Attempts()
    /// Whether the last of ``attempts`` is still running.
    var isHopOpen = false
    /// The slot the running request holds under the session's limits, if it has one.
    var slot: Slot?
    /// Where the response came from, when the session's cache was consulted.
    var cacheStatus: CacheStatus?
    /// When the cache settled ``cacheStatus`` (``Timeline/cacheDecided``); `nil` until it did.
    var cacheDecided: Moment?
    /// What the body's reader stores in the cache once the body is read, when the response may be stored.
    var cacheWrite: Pipeline.CacheWrite?

    init(start: Moment) {
        self.start = start
    }

    /// Adds what a hop's context counted.
    func add(_ context: TransportContext, body: RequestBody?) {
        let sent = context.bytesSent
        bytesSent += sent > 0 ? sent : (body.flatMap { $0.inMemoryCount } ?? 0)
        let recorded = context.transactions
        if !recorded.isEmpty { transactions.append(contentsOf: recorded) }  // appending nothing still allocates
    }

    /// The outcome: `error` (nil on success), the body collected in memory, metrics and timeline.
    func outcome(body: Data?, error: FerryError?) -> TransferOutcome {
        let error = error?.adding(request: request, response: head, body: body)
        let now = Moment.now
        let timeline = Timeline(
            startDate: startDate, requestStart: start, firstResponseByte: firstResponseByte,
            requestCompleted: now, recorded: attemptsEnded(at: now, error: error), cacheDecided: cacheDecided)
        let metrics = Metrics(
            bytesSent: bytesSent, bytesReceived: bytesReceived, redirectCount: max(0, urls.count - 1), urls: urls,
            transactions: transactions, retryCount: attempt - 1, cacheStatus: cacheStatus)
        return TransferOutcome(
            request: request, response: head, body: body, error: error, metrics: metrics, timeline: timeline)
    }
}

extension RequestBody {
    /// The size of a body held in memory; `nil` for files and streams (no file system call on the hot path).
    var inMemoryCount: Int64? {
        if case .data(let data) = content { Int64(data.count) } else { nil }
    }
}
