/// The lock-held rules between a WebSocket's three parties: the consumer that awaits the next message, the reader
/// that pulls frames from the socket only when the consumer asks (back-pressure: one message in hand at most), and
/// the closer that sends a close frame when one is requested (by ``WebSocketTask/close(code:reason:)``, by the
/// cancellation of the consumer's task, or by the last copy of the task going away).
///
/// Every method returns what to resume; ``WebSocketInbox`` resumes it after the lock is released. The waiting
/// parties are generic (continuations in ``WebSocketInbox``, plain numbers in the tests), so that the rules are
/// tested without tasks or sockets.
struct WebSocketInboxStateMachine<Consumer, Reader, Closer> {
    /// What the consumer gets: a message, the end (`nil`), or the error that ended the socket.
    typealias Delivery = WebSocketDelivery
    /// A close the closer is to send.
    typealias CloseRequest = WebSocketCloseRequest

    /// What to resume once the lock is released, and with what.
    struct Action {
        var consumer: (Consumer, Delivery)?
        var reader: (Reader, Bool)?
        var closer: (Closer, CloseRequest?)?

        static var none: Action { Action() }
    }

    private var consumer: Consumer?
    private var reader: Reader?
    private var closer: Closer?
    /// A requested close the closer has not taken yet.
    private var pendingClose: CloseRequest?
    /// Whether a close was requested (taken or not).
    private(set) var isClosing = false
    /// Whether the reader is to stop pulling messages: a close was requested (unless it keeps reading), the
    /// consumer was cancelled, or ``stopReading()`` was called.
    private var isReadingStopped = false
    /// Whether the reader stopped: a requested close found afterwards is for the engine to send.
    private var hasReaderStopped = false
    /// How the socket ended, once it did.
    private(set) var end: Delivery?
    /// The close frame that ended the socket, once it did (`nil` when it ended without one).
    private(set) var closeFrame: WebSocketClose?
    /// What a protocol handler below the engine saw go wrong (a frame too large, a malformed frame), if anything.
    var fault: WebSocketCloseCode?

    /// The consumer asks for the next message.
    mutating func consumerWaits(_ continuation: Consumer) -> Action {
        if let end { return Action(consumer: (continuation, end)) }
        precondition(consumer == nil, "A WebSocketTask's messages are read by one iterator at a time")
        consumer = continuation
        if let reader, !isReadingStopped {
            self.reader = nil
            return Action(reader: (reader, true))
        }
        return .none
    }

    /// The consumer's task was cancelled: it gets a cancellation error at once and the socket closes with 1001.
    mutating func consumerCancelled() -> Action {
        var action = Action()
        if let consumer {
            self.consumer = nil
            action.consumer = (consumer, .failure(FerryError(.cancelled)))
        }
        let close = requestClose(CloseRequest(code: .goingAway, reason: ""))
        // No one is left to read for, even when a close was already under way.
        let stop = stopReading()
        action.reader = close.reader ?? stop.reader
        action.closer = close.closer
        return action
    }

    /// Stops the reader, waiting or not: no more messages are pulled (the close handshake then reads past them).
    mutating func stopReading() -> Action {
        isReadingStopped = true
        guard let reader else { return .none }
        self.reader = nil
        return Action(reader: (reader, false))
    }

    /// The reader waits until a message is wanted: resumed with `true` to read one, `false` to stop.
    mutating func readerWaits(_ continuation: Reader) -> Action {
        if isReadingStopped || end != nil { return Action(reader: (continuation, false)) }
        if consumer != nil { return Action(reader: (continuation, true)) }
        reader = continuation
        return .none
    }

    /// The reader has a message (or `nil` at the end of the inbound frames).
    mutating func deliver(_ message: WebSocketMessage) -> Action {
        guard let consumer else { return .none }
        self.consumer = nil
        return Action(consumer: (consumer, .success(message)))
    }

    /// The reader stopped, for any reason: a closer still waiting has nothing to send.
    mutating func readerStopped() -> Action {
        hasReaderStopped = true
        guard let closer else { return .none }
        self.closer = nil
        return Action(closer: (closer, nil))
    }

    /// The closer waits for a close to send: resumed with it, or with `nil` when the reader stopped first.
    mutating func closerWaits(_ continuation: Closer) -> Action {
        if let pendingClose {
            self.pendingClose = nil
            return Action(closer: (continuation, pendingClose))
        }
        if hasReaderStopped || end != nil { return Action(closer: (continuation, nil)) }
        closer = continuation
        return .none
    }

    /// A close is wanted: the first request wins.
    /// - Parameters:
    ///   - request: The close to send.
    ///   - keepsReading: Whether the reader goes on pulling messages for the consumer until the peer's close frame
    ///     ends them (RFC 6455 §1.4: what the peer sent before its close frame still arrives); otherwise it stops.
    mutating func requestClose(_ request: CloseRequest, keepsReading: Bool = false) -> Action {
        guard !isClosing, end == nil else { return .none }
        isClosing = true
        var action = keepsReading ? Action() : stopReading()
        if let closer {
            self.closer = nil
            action.closer = (closer, request)
        } else {
            pendingClose = request
        }
        return action
    }

    /// Takes a close requested before the socket opened, or after its reader stopped.
    mutating func takePendingClose() -> CloseRequest? {
        defer { pendingClose = nil }
        return pendingClose
    }

    /// The socket ended: everyone waiting is released, and every later consumer gets `end`.
    mutating func finish(_ end: Delivery, closeFrame: WebSocketClose?) -> Action {
        guard self.end == nil else { return .none }
        self.end = end
        self.closeFrame = closeFrame
        var action = Action()
        if let consumer {
            self.consumer = nil
            action.consumer = (consumer, end)
        }
        if let reader {
            self.reader = nil
            action.reader = (reader, false)
        }
        if let closer {
            self.closer = nil
            action.closer = (closer, nil)
        }
        pendingClose = nil
        return action
    }
}

/// What a WebSocket's consumer gets: a message, the end (`nil`), or the error that ended the socket.
package typealias WebSocketDelivery = Result<WebSocketMessage?, FerryError>

/// A close to send: its code and reason.
package struct WebSocketCloseRequest: Equatable, Sendable {
    /// The close code.
    package var code: WebSocketCloseCode
    /// The close reason.
    package var reason: String

    /// Creates a close request.
    package init(code: WebSocketCloseCode, reason: String) {
        self.code = code
        self.reason = reason
    }
}
