/// One event of a `text/event-stream` body.
public struct ServerSentEvent: Sendable, Hashable {
    /// The last event ID in effect when the event was dispatched: set by the latest `id` field, in this event or
    /// an earlier one; `nil` when the stream has not sent one.
    public var id: String?
    /// The event type: the `event` field, or `"message"` when the event had none.
    public var event: String
    /// The `data` fields, joined with `"\n"`.
    public var data: String
    /// The reconnection time from the latest valid `retry` field in the stream so far, or `nil` when none came.
    public var retry: Duration?

    /// Creates an event.
    /// - Parameters:
    ///   - id: The last event ID.
    ///   - event: The event type.
    ///   - data: The event's data.
    ///   - retry: The reconnection time.
    public init(id: String? = nil, event: String = "message", data: String = "", retry: Duration? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }
}
