import Foundation

/// When each step of a request happened, measured by Ferry with a monotonic clock on every platform.
///
/// URLSession on Linux reports no metrics at all; Ferry stamps the steps itself, so the timeline is the same
/// on every platform and transport.
public struct Timeline: Sendable, Hashable {
    /// The wall-clock time the request started, for logs.
    public var startDate: Date
    /// When Ferry began sending the request.
    public var requestStart: ContinuousClock.Instant {
        get { moments.requestStart.instant }
        set { moments.requestStart = Moment(newValue) }
    }
    /// When the session's cache settled where the response comes from (``Metrics/cacheStatus``); `nil` when no cache
    /// was consulted (none in the session, a request that is not a `GET` read into memory) or the request failed
    /// before it settled.
    ///
    /// For a hit, a stale hit, an unsatisfiable request and a miss, it is the end of the lookup, before anything is
    /// sent; when a stored response had to be revalidated, it is the moment the conditional request's answer (or
    /// failure) decided: revalidated, served stale on error, or a miss.
    public var cacheDecided: ContinuousClock.Instant? {
        get { moments.cacheDecided?.instant }
        set { moments.cacheDecided = newValue.map(Moment.init) }
    }
    /// When the first response head arrived (of the first hop, when redirects were followed); `nil` when none did.
    public var firstResponseByte: ContinuousClock.Instant? {
        get { moments.firstResponseByte?.instant }
        set { moments.firstResponseByte = newValue.map(Moment.init) }
    }
    /// When the last byte arrived or the request failed.
    public var requestCompleted: ContinuousClock.Instant {
        get { moments.requestCompleted.instant }
        set { moments.requestCompleted = Moment(newValue) }
    }
    /// When the serializer finished; `nil` before serialization.
    public var serializationCompleted: ContinuousClock.Instant? {
        get { moments.serializationCompleted?.instant }
        set { moments.serializationCompleted = newValue.map(Moment.init) }
    }
    /// The instants above as Ferry stores them (``Moment``).
    var moments: Moments

    /// The timeline's instants, stored as ``Moment``s.
    struct Moments: Sendable, Hashable {
        var requestStart: Moment
        var cacheDecided: Moment?
        var firstResponseByte: Moment?
        var requestCompleted: Moment
        var serializationCompleted: Moment?
    }
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
            startDate: startDate, requestStart: Moment(requestStart),
            firstResponseByte: firstResponseByte.map(Moment.init),
            requestCompleted: Moment(requestCompleted), serializationCompleted: serializationCompleted.map(Moment.init),
            recorded: Attempts(attempts), cacheDecided: cacheDecided.map(Moment.init))
    }

    /// A timeline in which everything happened now: for responses built by hand (in tests).
    public init() {
        let now = Moment.now
        self.init(
            startDate: Date(), requestStart: now, firstResponseByte: nil, requestCompleted: now, recorded: Attempts())
    }

    init(
        startDate: Date, requestStart: Moment, firstResponseByte: Moment?, requestCompleted: Moment,
        serializationCompleted: Moment? = nil, recorded: Attempts, cacheDecided: Moment? = nil
    ) {
        self.startDate = startDate
        self.moments = Moments(
            requestStart: requestStart, cacheDecided: cacheDecided, firstResponseByte: firstResponseByte,
            requestCompleted: requestCompleted, serializationCompleted: serializationCompleted)
        self.recorded = recorded
    }

    /// Time from the start to the cache's decision (``cacheDecided``); `nil` when no cache decided.
    public var cacheDuration: Duration? { moments.cacheDecided.map { moments.requestStart.duration(to: $0) } }
    /// Time from the start to the first response head; `nil` when none arrived.
    public var latency: Duration? { moments.firstResponseByte.map { moments.requestStart.duration(to: $0) } }
    /// Time from the start to the end of the transfer.
    public var requestDuration: Duration { moments.requestStart.duration(to: moments.requestCompleted) }
    /// Time the serializer took; `nil` before serialization.
    public var serializationDuration: Duration? {
        moments.serializationCompleted.map { moments.requestCompleted.duration(to: $0) }
    }
    /// Time from the start to the end of serialization (or of the transfer, before serialization).
    public var totalDuration: Duration {
        moments.requestStart.duration(to: moments.serializationCompleted ?? moments.requestCompleted)
    }
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
