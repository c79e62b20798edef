#if Logging
public import Logging

extension Session {
    /// Creates a session that logs every request to `logger` through a ``LoggingEventMonitor`` (the `Logging`
    /// trait): one `.debug` line per request, `.error` for failures.
    /// - Parameters:
    ///   - configuration: The configuration; the monitor is added to its ``Configuration/eventMonitors``.
    ///   - logger: The logger.
    public init(configuration: Configuration = Configuration(), logger: Logger) {
        var configuration = configuration
        configuration.eventMonitors.append(LoggingEventMonitor(logger: logger))
        self.init(configuration: configuration)
    }
}
#endif
