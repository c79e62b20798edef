/// Hands events to a session's monitors without ever waiting for one: each monitor has a buffer and a task that
/// empties it, in order. Sending is a synchronous append to each buffer.
final class EventDelivery: TransferObserver {
    private typealias Entry = (event: RequestEvent, id: RequestID)

    private let buffers: [AsyncStream<Entry>.Continuation]

    /// Starts one delivering task per monitor; `nil` when there is no monitor, so that a session without monitors
    /// pays one `nil` check per event.
    /// - Parameters:
    ///   - monitors: The monitors.
    ///   - limit: How many events may wait for one monitor; past it, the newest are dropped.
    init?(monitors: [any EventMonitor], limit: Int) {
        guard !monitors.isEmpty else { return nil }
        buffers = monitors.map { monitor in
            let (events, buffer) = AsyncStream<Entry>.makeStream(bufferingPolicy: .bufferingOldest(max(limit, 1)))
            // Detached: a monitor inherits neither the priority nor the task locals of the request that happened to
            // make the session.
            Task.detached {
                for await entry in events { await entry.event.deliver(to: monitor, id: entry.id) }
            }
            return buffer
        }
    }

    deinit {
        finish()
    }

    /// Queues `event` for every monitor.
    func observe(_ event: RequestEvent, id: RequestID) {
        for buffer in buffers { buffer.yield((event, id)) }
    }

    /// Ends delivery once the events queued so far are delivered.
    func finish() {
        for buffer in buffers { buffer.finish() }
    }
}
