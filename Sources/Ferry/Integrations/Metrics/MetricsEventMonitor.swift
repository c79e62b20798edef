#if Metrics
public import CoreMetrics
import Metrics

/// An ``EventMonitor`` that feeds swift-metrics from Ferry's events and timeline:
///
/// - `http.client.request.duration`: a timer per finished request (from the first attempt's start to the last
///   byte), with dimensions `http.request.method`, `http.response.status_code` (the status class, `2xx`…, or
///   `error` when no response came) and `server.address`;
/// - `http.client.active_requests`: a gauge of requests between their first attempt and their end;
/// - `http.client.retries` and `http.client.timeouts`: counters, with dimension `server.address`;
/// - `ferry.cache.requests`: a counter per request the session's cache decided, with dimensions `ferry.cache` (the
///   ``CacheStatus``: `hit`, `staleHit`, `revalidated`, `miss`, `unsatisfiable`) and `server.address`.
///
/// Requests waiting for a per-host slot are not counted: Ferry has no per-host limit yet.
public final class MetricsEventMonitor: EventMonitor {
    private let factory: any MetricsFactory
    private let active: Meter
    private let running = Locked<Set<RequestID>>([])

    /// Creates a monitor.
    /// - Parameter factory: Where the metrics go; the bootstrapped `MetricsSystem`'s by default.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
        active = Meter(label: "http.client.active_requests", factory: factory)
    }

    /// Counts the request as active from its first attempt.
    public func attemptStarted(_ request: Request, attempt: Int, id: RequestID) async {
        guard running.withLock({ $0.insert(id).inserted }) else { return }
        active.increment()
    }

    /// Counts the request under its cache status.
    public func cacheDecided(_ status: CacheStatus, for request: Request, id: RequestID) async {
        Counter(
            label: "ferry.cache.requests", dimensions: [("ferry.cache", "\(status)")] + Self.server(request),
            factory: factory
        ).increment()
    }

    /// Counts the retry.
    public func retryScheduled(after failure: FailedAttempt, delay: Duration, id: RequestID) async {
        Counter(label: "http.client.retries", dimensions: Self.server(failure.request), factory: factory).increment()
    }

    /// Records the duration and ends the active count.
    public func requestCompleted(_ completion: RequestCompletion, id: RequestID) async {
        finish(completion, id: id)
    }

    /// Records the duration and ends the active count.
    public func requestCancelled(_ completion: RequestCompletion, id: RequestID) async {
        finish(completion, id: id)
    }

    private func finish(_ completion: RequestCompletion, id: RequestID) {
        if running.withLock({ $0.remove(id) }) != nil { active.decrement() }
        let server = completion.request.map(Self.server) ?? []
        if completion.error?.isTimeout == true {
            Counter(label: "http.client.timeouts", dimensions: server, factory: factory).increment()
        }
        let status = completion.response.map { "\($0.statusCode / 100)xx" } ?? "error"
        let method = completion.request?.method.rawValue ?? "_OTHER"
        Timer(
            label: "http.client.request.duration",
            dimensions: [("http.request.method", method), ("http.response.status_code", status)] + server,
            factory: factory
        ).recordNanoseconds(Self.nanoseconds(completion.timeline.requestDuration))
    }

    private static func server(_ request: Request) -> [(String, String)] {
        [("server.address", request.url.host ?? "")]
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
#endif
