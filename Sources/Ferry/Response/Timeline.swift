import Foundation

/// When each step of a request happened, measured by Ferry with a monotonic clock on every platform.
///
/// URLSession on Linux reports no metrics at all; Ferry stamps the steps itself, so the timeline is the same
/// on every platform and transport.
public struct Timeline: Sendable, Hashable {
    /// The wall-clock time the request started, for logs.
    public var startDate: Date
    /// When Ferry began sending the request.
    public var requestStart: ContinuousClock.Instant
    /// When the session's cache settled where the response comes from (``Metrics/cacheStatus``); `nil` when no cache
    /// was consulted (none in the session, a request that is not a `GET` read into memory) or the request failed
    /// before it settled.
    ///
    /// For a hit, a stale hit, an unsatisfiable request and a miss, it is the end of the lookup, before anything is
    /// sent; when a stored response had to be revalidated, it is the moment the conditional request's answer (or
    /// failure) decided: revalidated, served stale on error, or a miss.
    public var cacheDecided: ContinuousClock.Instant?
    /// When the first response head arrived (of the first hop, when redirects were followed); `nil` when none did.
    public var firstResponseByte: ContinuousClock.Instant?
    /// When the last byte arrived or the request failed.
    public var requestCompleted: ContinuousClock.Instant
    /// When the serializer finished; `nil` before serialization.
    public var serializationCompleted: ContinuousClock.Instant?
    /// Every request handed to the transport, in order: each attempt, and each redirect an attempt followed.
    public var attempts: [Attempt] {
        get { recorded.all }
        set { recorded = Attempts(newValue) }
    }
    var recorded: Attempts

    /// Creates a timeline.
    /// - Parameters:
    ///   - startDate: The wall-clock start.
    ///   - requestStart: When sending began.
    ///   - firstResponseByte: When the first response head arrived.
    ///   - requestCompleted: When the transfer ended.
    ///   - serializationCompleted: When serialization ended.
    ///   - attempts: Every request handed to the transport, in order.
    ///   - cacheDecided: When the session's cache settled where the response comes from.
    public init(
        startDate: Date,
        requestStart: ContinuousClock.Instant,
        firstResponseByte: ContinuousClock.Instant?,
        requestCompleted: ContinuousClock.Instant,
        serializationCompleted: ContinuousClock.Instant? = nil,
        attempts: [Attempt] = [],
        cacheDecided: ContinuousClock.Instant? = nil
    ) {
        self.init(
            startDate: startDate, requestStart: requestStart, firstResponseByte: firstResponseByte,
            requestCompleted: requestCompleted, serializationCompleted: serializationCompleted,
            recorded: Attempts(attempts), cacheDecided: cacheDecided)
    }

    /// A timeline in which everything happened now: for responses built by hand (in tests).
    public init() {
        let now = ContinuousClock.now
        self.init(startDate: Date(), requestStart: now, firstResponseByte: nil, requestCompleted: now)
    }

    init(
        startDate: Date, requestStart: ContinuousClock.Instant, firstResponseByte: ContinuousClock.Instant?,
        requestCompleted: ContinuousClock.Instant, serializationCompleted: ContinuousClock.Instant? = nil,
        recorded: Attempts, cacheDecided: ContinuousClock.Instant? = nil
    ) {
        self.startDate = startDate
        self.requestStart = requestStart
        self.cacheDecided = cacheDecided
        self.firstResponseByte = firstResponseByte
        self.requestCompleted = requestCompleted
        self.serializationCompleted = serializationCompleted
        self.recorded = recorded
    }

    /// Time from the start to the cache's decision (``cacheDecided``); `nil` when no cache decided.
    public var cacheDuration: Duration? { cacheDecided.map { requestStart.duration(to: $0) } }
    /// Time from the start to the first response head; `nil` when none arrived.
    public var latency: Duration? { firstResponseByte.map { requestStart.duration(to: $0) } }
    /// Time from the start to the end of the transfer.
    public var requestDuration: Duration { requestStart.duration(to: requestCompleted) }
    /// Time the serializer took; `nil` before serialization.
    public var serializationDuration: Duration? { serializationCompleted.map { requestCompleted.duration(to: $0) } }
    /// Time from the start to the end of serialization (or of the transfer, before serialization).
    public var totalDuration: Duration { requestStart.duration(to: serializationCompleted ?? requestCompleted) }
    /// Time spent waiting for a slot under the session's limits, over every attempt; zero without limits.
    public var queueWait: Duration {
        recorded.all.reduce(.zero) { $0 + $1.queueWait }
    }
}

extension Timeline: CustomStringConvertible {
    /// The durations in milliseconds, on one line (with the cache's decision first, when a cache decided).
    public var description: String {
        func ms(_ duration: Duration?) -> String {
            guard let duration else { return "-" }
            let (seconds, attoseconds) = duration.components
            return String(format: "%.3f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
        }
        let queued = queueWait > .zero ? "queued \(ms(queueWait)), " : ""
        let cache = cacheDuration.map { "cache decided at \(ms($0)), " } ?? ""
        return "\(cache)\(queued)latency \(ms(latency)), request \(ms(requestDuration)), "
            + "serialization \(ms(serializationDuration)), total \(ms(totalDuration))"
    }
}
