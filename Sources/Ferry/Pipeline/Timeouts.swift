/// Ferry's own idle and total timeouts, enforced the same way on every transport.
///
/// A watchdog child task sleeps until the earliest deadline (the total one, or the last activity plus the idle
/// timeout), re-checks, and throws ``FerryError/Reason/timedOut(_:)`` when one has passed; the operation is then
/// cancelled. Durations are exact: no rounding to whole seconds.
struct Timeouts: Sendable {
    var idle: Duration?
    var total: Duration?
    var start: ContinuousClock.Instant

    func run<Value: Sendable>(
        watching sink: ResponseSink,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        guard idle != nil || total != nil else { return try await operation() }
        return try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await watch(sink)
                return nil
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let value = next { return value }
            }
            throw FerryError(.cancelled)
        }
    }

    private func watch(_ sink: ResponseSink) async throws {
        let deadline = total.map { start + $0 }
        while true {
            let now = ContinuousClock.now
            if let deadline, now >= deadline { throw FerryError(.timedOut(.total)) }
            var wake = deadline
            if let idle {
                // A transport paused for a slow stream consumer is not an idle server.
                if sink.isWaitingForConsumer { sink.noteActivity() }
                let idleDeadline = sink.lastActivity + idle
                if now >= idleDeadline { throw FerryError(.timedOut(.idle)) }
                wake = min(wake ?? idleDeadline, idleDeadline)
            }
            guard let wake else { return }
            try await DeadlineSleep.sleep(until: wake)
        }
    }
}
