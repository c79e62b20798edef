/// Ferry's own idle and total timeouts, enforced the same way on every transport.
///
/// The operation runs in the calling task; a ``Watchdog`` timer checks the earliest deadline (the total one, or the
/// last activity plus the idle timeout) and, when one has passed, cancels the request's task through `cancel`. The
/// operation then ends with a cancellation, which `run` reports as ``FerryError/Reason/timedOut(_:)``. No extra task
/// per request, and one timer, released when the request ends. Durations are exact: no rounding to whole seconds.
struct Timeouts: Sendable {
    var idle: Duration?
    var total: Duration?
    var start: ContinuousClock.Instant

    /// Runs `operation` under the timeouts.
    /// - Parameters:
    ///   - sink: The request's sink, whose last activity the idle timeout measures.
    ///   - cancel: Cancels the task running `operation` (the request's transfer).
    ///   - operation: The exchange.
    /// - Returns: The operation's value.
    /// - Throws: ``FerryError/Reason/timedOut(_:)`` when a timeout fired, else what the operation threw.
    func run<Value: Sendable>(
        watching sink: ResponseSink,
        cancel: @escaping @Sendable () -> Void,
        _ operation: () async throws -> Value
    ) async throws -> Value {
        guard idle != nil || total != nil else { return try await operation() }
        let watchdog = Watchdog(idle: idle, deadline: total.map { start + $0 }, sink: sink, onTimeout: cancel)
        watchdog.start()
        defer { watchdog.stop() }
        let value: Value
        do {
            value = try await operation()
        } catch {
            if let kind = watchdog.firedKind { throw FerryError(.timedOut(kind)) }
            throw error
        }
        // A deadline passed but the transport finished anyway (the cancellation lost a race, or the transport
        // did not stop): the request still took longer than its timeout.
        if let kind = watchdog.firedKind { throw FerryError(.timedOut(kind)) }
        return value
    }
}
