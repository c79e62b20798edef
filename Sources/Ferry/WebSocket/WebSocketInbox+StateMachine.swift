/// The lock-held rules between a WebSocket's parties: the consumer that awaits the next message and reads it from
/// the socket itself, with the engine's reader, only when it asks (back-pressure: no message is read ahead); the
/// engine's socket task, which waits until reading is over before the close handshake reads on; the closer that
/// sends a close frame when one is requested (by ``WebSocketTask/close(code:reason:)``, by the cancellation of the
/// consumer's task, or by the last copy of the task going away); and the pingers that await their pongs
/// (``WebSocketTask/ping(_:)``).
///
/// The consumer reads in its own task: no task of the socket's wakes for each message (a reader task handing each
/// message on cost 18 µs of CPU and 1.4 context switches a round trip, Benchmarks/README, "The consumer reads the
/// socket itself"). One read at a time, and none once ``readingEnds(_:)`` has let the socket's task go on:
/// swift-websocket's close handshake then reads the same socket.
///
/// Every method returns what to resume; ``WebSocketInbox`` resumes it after the lock is released. The waiting
/// parties are generic (continuations in ``WebSocketInbox``, plain numbers in the tests), so that the rules are
/// tested without tasks or sockets.
struct WebSocketInboxStateMachine<Consumer, Reader, ReadingEnd, Closer, Pinger> {
    /// What the consumer gets: a message, the end (`nil`), or the error that ended the socket.
    typealias Delivery = WebSocketDelivery
    /// A close the closer is to send.
    typealias CloseRequest = WebSocketCloseRequest
    /// What the consumer is resumed with.
    typealias Turn = WebSocketConsumerTurn<Reader>

    /// What to resume once the lock is released, and with what.
    struct Action {
        var consumer: (Consumer, Turn)?
        /// The socket's task, with the error of the read that ended the messages, if one did.
        var readingEnd: (ReadingEnd, (any Error)?)?
        var closer: (Closer, CloseRequest?)?
        var pingers: [(Pinger, Result<Void, FerryError>)] = []

        static var none: Action { Action() }
    }

    /// A ping sent and not yet answered, in the order sent.
    private struct Ping {
        enum Phase {
            /// Sent; its pinger has not started waiting.
            case sent
            /// Its pinger waits.
            case waiting(Pinger)
            /// Answered before its pinger waited.
            case answered
        }

        let id: Int
        let payload: [UInt8]
        var phase: Phase
    }

    private var consumer: Consumer?
    /// The engine's reader, once the socket is open.
    private var reader: Reader?
    /// Whether the consumer is reading a message.
    private var isConsumerReading = false
    /// Whether a read ended the messages (the socket's inbound ended, or the read failed).
    private var isReadingOver = false
    /// The error of the read that ended the messages.
    private var readFailure: (any Error)?
    /// The socket's task, waiting until reading is over.
    private var readingEnd: ReadingEnd?
    private var closer: Closer?
    /// A requested close the closer has not taken yet.
    private var pendingClose: CloseRequest?
    /// Whether a close was requested (taken or not).
    private(set) var isClosing = false
    /// Whether no more messages are to be read: a close was requested (unless it keeps reading), the consumer was
    /// cancelled, or ``stopReading()`` was called.
    private var isReadingStopped = false
    /// Whether the socket's task stopped reading for good: a requested close found afterwards is for the engine to
    /// send.
    private var hasReaderStopped = false
    /// How the socket ended, once it did.
    private(set) var end: Delivery?
    /// The close frame that ended the socket, once it did (`nil` when it ended without one).
    private(set) var closeFrame: WebSocketClose?
    /// What a protocol handler below the engine saw go wrong (a frame too large, a malformed frame), if anything.
    var fault: WebSocketCloseCode?
    private var pings: [Ping] = []
    private var nextPingID = 0

    /// Whether no more messages will be read.
    private var readsNoMore: Bool { isReadingStopped || isReadingOver || end != nil }

    /// The consumer asks for the next message: it reads it with the reader, or gets the end; `nil` when it must
    /// wait (``consumerWaits(_:)``) for the socket to open or end.
    mutating func consumerAsks() -> Turn? {
        if let end { return .deliver(end) }
        precondition(
            consumer == nil && !isConsumerReading, "A WebSocketTask's messages are read by one iterator at a time")
        guard let reader, !readsNoMore else { return nil }
        isConsumerReading = true
        return .read(reader)
    }

    /// The consumer waits for its turn: resumed at once when it has one already.
    mutating func consumerWaits(_ continuation: Consumer) -> Action {
        if let turn = consumerAsks() { return Action(consumer: (continuation, turn)) }
        consumer = continuation
        return .none
    }

    /// The socket opened: its reader reads messages for the consumer from now on.
    mutating func attach(_ reader: Reader) -> Action {
        self.reader = reader
        guard let consumer, !readsNoMore else { return .none }
        self.consumer = nil
        return consumerWaits(consumer)
    }

    /// The consumer's read is over: a message (which it returns), or the end of the messages (`nil`, or the
    /// read's error), after which it waits for the socket's end.
    mutating func readFinished(_ result: Result<WebSocketMessage?, any Error>) -> Action {
        isConsumerReading = false
        switch result {
        case .success(.some):
            break
        case .success(nil):
            isReadingOver = true
        case .failure(let error):
            isReadingOver = true
            readFailure = error
        }
        return releaseReadingEnd()
    }

    /// The socket's task waits until reading is over: resumed at once when it is.
    mutating func readingEnds(_ continuation: ReadingEnd) -> Action {
        readingEnd = continuation
        return releaseReadingEnd()
    }

    /// Lets the socket's task go on once no message is to be read and none is being read.
    private mutating func releaseReadingEnd() -> Action {
        guard let readingEnd, readsNoMore, !isConsumerReading else { return .none }
        self.readingEnd = nil
        return Action(readingEnd: (readingEnd, readFailure))
    }

    /// The consumer's task was cancelled: it gets a cancellation error at once and the socket closes with 1001.
    mutating func consumerCancelled() -> Action {
        var action = Action()
        if let consumer {
            self.consumer = nil
            action.consumer = (consumer, .deliver(.failure(FerryError(.cancelled))))
        }
        let close = requestClose(CloseRequest(code: .goingAway, reason: ""))
        // No one is left to read for, even when a close was already under way.
        let stop = stopReading()
        action.readingEnd = close.readingEnd ?? stop.readingEnd
        action.closer = close.closer
        return action
    }

    /// Reads no more messages: a read under way still ends, then the close handshake reads past what follows.
    mutating func stopReading() -> Action {
        isReadingStopped = true
        return releaseReadingEnd()
    }

    /// The socket's task stopped reading, for any reason: a closer still waiting has nothing to send.
    mutating func readerStopped() -> Action {
        hasReaderStopped = true
        guard let closer else { return .none }
        self.closer = nil
        return Action(closer: (closer, nil))
    }

    /// The closer waits for a close to send: resumed with it, or with `nil` when the socket's task stopped reading
    /// first.
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
    ///   - keepsReading: Whether the consumer goes on reading messages until the peer's close frame
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

    /// Takes a close requested before the socket opened, or after the socket's task stopped reading.
    mutating func takePendingClose() -> CloseRequest? {
        defer { pendingClose = nil }
        return pendingClose
    }

    // MARK: Pings

    /// A ping is about to be sent, with `payload` (at most 125 bytes, as sent).
    /// - Returns: Its number for ``pingerWaits(_:continuation:)`` and ``pingAbandoned(_:)``, or the error that
    ///   ended the socket.
    mutating func pingSent(payload: [UInt8]) -> Result<Int, FerryError> {
        if let end { return .failure(Self.endError(end, closeFrame: closeFrame)) }
        nextPingID += 1
        pings.append(Ping(id: nextPingID, payload: payload, phase: .sent))
        return .success(nextPingID)
    }

    /// The ping's pinger waits for its pong: resumed at once when it came already, or when the socket ended.
    mutating func pingerWaits(_ id: Int, continuation: Pinger) -> Action {
        guard let index = pings.firstIndex(where: { $0.id == id }) else {
            let error = end.map { Self.endError($0, closeFrame: closeFrame) } ?? FerryError(.cancelled)
            return Action(pingers: [(continuation, .failure(error))])
        }
        if case .answered = pings[index].phase {
            pings.remove(at: index)
            return Action(pingers: [(continuation, .success(()))])
        }
        pings[index].phase = .waiting(continuation)
        return .none
    }

    /// A pong arrived. It answers the latest ping with the same payload and every ping sent before that one (RFC
    /// 6455 §5.5.3 lets a peer answer only the most recent of several pings); one that matches no ping (an
    /// unsolicited pong, a heartbeat) answers none.
    mutating func pongArrived(payload: [UInt8]) -> Action {
        guard let last = pings.lastIndex(where: { $0.payload == payload }) else { return .none }
        var action = Action()
        var index = 0
        for _ in 0...last {
            switch pings[index].phase {
            case .waiting(let pinger):
                action.pingers.append((pinger, .success(())))
                pings.remove(at: index)
            case .sent:
                pings[index].phase = .answered
                index += 1
            case .answered:
                index += 1
            }
        }
        return action
    }

    /// The ping is no longer awaited: its send failed, or its pinger's task was cancelled (which fails the wait).
    mutating func pingAbandoned(_ id: Int) -> Action {
        guard let index = pings.firstIndex(where: { $0.id == id }) else { return .none }
        let ping = pings.remove(at: index)
        guard case .waiting(let pinger) = ping.phase else { return .none }
        return Action(pingers: [(pinger, .failure(FerryError(.cancelled)))])
    }

    /// What a pinger gets when the socket ended before the pong: the error that ended it, or for a clean end
    /// ``FerryError/Reason/webSocketClosed(_:)`` with the close code.
    private static func endError(_ end: Delivery, closeFrame: WebSocketClose?) -> FerryError {
        if case .failure(let error) = end { return error }
        return FerryError(.webSocketClosed(closeFrame?.code ?? .normalClosure))
    }

    // MARK: The end

    /// The socket ended: everyone waiting is released, and every later consumer gets `end`.
    mutating func finish(_ end: Delivery, closeFrame: WebSocketClose?) -> Action {
        guard self.end == nil else { return .none }
        self.end = end
        self.closeFrame = closeFrame
        var action = Action()
        let error = Self.endError(end, closeFrame: closeFrame)
        for ping in pings {
            if case .waiting(let pinger) = ping.phase { action.pingers.append((pinger, .failure(error))) }
        }
        pings = []
        if let consumer {
            self.consumer = nil
            action.consumer = (consumer, .deliver(end))
        }
        if let readingEnd {
            self.readingEnd = nil
            action.readingEnd = (readingEnd, readFailure)
        }
        if let closer {
            self.closer = nil
            action.closer = (closer, nil)
        }
        pendingClose = nil
        return action
    }
}

/// What a WebSocket's consumer is resumed with: what to return, or the reader to read the next message with.
enum WebSocketConsumerTurn<Reader> {
    /// A message, the end, or the error that ended the socket.
    case deliver(WebSocketDelivery)
    /// Read the next message with this reader, in the consumer's task.
    case read(Reader)
}

extension WebSocketConsumerTurn: Sendable where Reader: Sendable {}

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
