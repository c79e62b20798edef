#if Logging
public import Logging

/// An ``EventMonitor`` that writes one line per request to a swift-log `Logger`: `.debug` when a response came
/// (whatever its status: validation belongs to the task that reads it), `.error` when the request failed without
/// one (a transport failure, a timeout), `.debug` when it was cancelled and for each retry.
///
/// A request's own ``Request/logger`` wins over the monitor's, so a server can log an upstream call with the
/// metadata of the incoming request that made it. URLs are logged without user info, query values of secrets are
/// not inspected: keep secrets out of URLs.
///
/// Metadata keys: `ferry.request_id`, `http.request.method`, `url.full`, `http.response.status_code`,
/// `ferry.duration_ms`, `ferry.attempts`, `ferry.redirects`, `ferry.cache` (the ``CacheStatus``, when the session's
/// cache decided: the request's one line carries it, so the cache's decision adds no line of its own),
/// `error.type`, `ferry.retry_delay_ms`.
public struct LoggingEventMonitor: EventMonitor {
    /// Where lines go when a request has no logger of its own.
    public let logger: Logger

    /// Creates a monitor.
    /// - Parameter logger: The logger.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// Logs the finished request.
    public func requestCompleted(_ completion: RequestCompletion, id: RequestID) async {
        let logger = completion.request?.logger ?? logger
        var metadata = Self.metadata(completion, id: id)
        if let error = completion.error {
            metadata["error.type"] = "\(error.reason)"
            logger.error("\(error.localizedDescription)", metadata: metadata)
        } else {
            logger.debug("\(Self.line(completion))", metadata: metadata)
        }
    }

    /// Logs the cancelled request.
    public func requestCancelled(_ completion: RequestCompletion, id: RequestID) async {
        let logger = completion.request?.logger ?? logger
        logger.debug("\(Self.subject(completion)) cancelled", metadata: Self.metadata(completion, id: id))
    }

    /// Logs the retry.
    public func retryScheduled(after failure: FailedAttempt, delay: Duration, id: RequestID) async {
        let logger = failure.request.logger ?? logger
        logger.debug(
            "\(failure.request.method.rawValue) \(LogText.url(failure.request.url)) retried after attempt \(failure.attempt)",
            metadata: [
                "ferry.request_id": "\(id.rawValue)", "error.type": "\(failure.error.reason)",
                "ferry.retry_delay_ms": "\(LogText.milliseconds(delay))",
            ])
    }

    private static func subject(_ completion: RequestCompletion) -> String {
        guard let request = completion.request else { return "request" }
        return "\(request.method.rawValue) \(LogText.url(request.url))"
    }

    private static func line(_ completion: RequestCompletion) -> String {
        let status = completion.response.map { " \($0.statusCode)" } ?? ""
        return "\(subject(completion))\(status) in \(LogText.milliseconds(completion.timeline.totalDuration)) ms"
    }

    private static func metadata(_ completion: RequestCompletion, id: RequestID) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "ferry.request_id": "\(id.rawValue)",
            "ferry.duration_ms": "\(LogText.milliseconds(completion.timeline.totalDuration))",
            "ferry.attempts": "\(completion.metrics.retryCount + 1)",
            "ferry.redirects": "\(completion.metrics.redirectCount)",
        ]
        if let request = completion.request {
            metadata["http.request.method"] = "\(request.method.rawValue)"
            metadata["url.full"] = "\(LogText.url(request.url))"
        }
        if let status = completion.response?.statusCode { metadata["http.response.status_code"] = "\(status)" }
        if let cache = completion.metrics.cacheStatus { metadata["ferry.cache"] = "\(cache)" }
        return metadata
    }
}
#endif
