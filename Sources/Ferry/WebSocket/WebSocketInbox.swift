/// The meeting point of a WebSocket's consumer, socket task and closer (see ``WebSocketInboxStateMachine``): the
/// state behind a lock, because cancellation handlers and `deinit` reach it synchronously, and every continuation
/// resumed after the lock is released.
package final class WebSocketInbox: Sendable {
    private typealias Machine = WebSocketInboxStateMachine<
        CheckedContinuation<WebSocketConsumerTurn<WebSocketReader>, Never>, WebSocketReader,
        CheckedContinuation<(any Error)?, Never>, CheckedContinuation<WebSocketCloseRequest?, Never>,
        CheckedContinuation<Result<Void, FerryError>, Never>
    >

    private let state = Locked(Machine())

    /// The next message, `nil` at the end: read from the socket in the calling task when the socket is open, else
    /// awaited until it opens or ends.
    /// - Throws: ``FerryError``: the error that ended the socket, or ``FerryError/Reason/cancelled`` when the
    ///   awaiting task is cancelled (the socket then closes with 1001).
    func next() async throws(FerryError) -> WebSocketMessage? {
        while true {
            if Task.isCancelled {
                apply(state.withLock { $0.consumerCancelled() })
                throw FerryError(.cancelled)
            }
            switch await turn() {
            case .deliver(let delivery):
                // A cancellation that came before the consumer waited found no one to fail, only a socket to close.
                if case .success(nil) = delivery, Task.isCancelled { throw FerryError(.cancelled) }
                return try delivery.get()
            case .read(let reader):
                let result = await read(with: reader)
                apply(state.withLock { $0.readFinished(result) })
                // A message, or else the read ended the messages: the socket's end follows once it has closed.
                if case .success(let message?) = result { return message }
            }
        }
    }

    /// The consumer's turn: at once when the socket is open (no continuation on a message's way), else once it opens
    /// or ends.
    private func turn() async -> WebSocketConsumerTurn<WebSocketReader> {
        if let turn = state.withLock({ $0.consumerAsks() }) { return turn }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                apply(state.withLock { $0.consumerWaits(continuation) })
            }
        } onCancel: {
            apply(state.withLock { $0.consumerCancelled() })
        }
    }

    /// One read, in the consumer's task; its cancellation closes the socket with 1001, as a waiting consumer's does.
    private func read(with reader: WebSocketReader) async -> Result<WebSocketMessage?, any Error> {
        await withTaskCancellationHandler {
            do {
                return .success(try await reader.next())
            } catch {
                return .failure(error)
            }
        } onCancel: {
            apply(state.withLock { $0.consumerCancelled() })
        }
    }

    /// The socket opened: the consumer reads its messages with `reader` from now on.
    package func attach(_ reader: WebSocketReader) {
        apply(state.withLock { $0.attach(reader) })
    }

    /// Waits until no message is to be read and none is being read: a close was requested, the consumer was
    /// cancelled, or a read ended the messages.
    /// - Returns: The error of the read that ended the messages, if one did.
    package func readingEnds() async -> (any Error)? {
        await withCheckedContinuation { continuation in
            apply(state.withLock { $0.readingEnds(continuation) })
        }
    }

    /// Says that the socket's task stopped reading for good.
    package func readerStopped() {
        apply(state.withLock { $0.readerStopped() })
    }

    /// Waits for a close to send; `nil` when the reader stopped without one.
    package func closerWaits() async -> WebSocketCloseRequest? {
        await withCheckedContinuation { continuation in
            apply(state.withLock { $0.closerWaits(continuation) })
        }
    }

    /// Asks for a close; the first request wins.
    /// - Parameter keepsReading: Whether the consumer still gets the messages the peer sent before its close frame.
    func requestClose(_ code: WebSocketCloseCode, reason: String, keepsReading: Bool = false) {
        apply(state.withLock { $0.requestClose(.init(code: code, reason: reason), keepsReading: keepsReading) })
    }

    /// Reads no more messages for the consumer; a read under way still ends.
    func stopReading() {
        apply(state.withLock { $0.stopReading() })
    }

    /// A close requested but not sent by the closer (it was requested before the socket opened).
    func takePendingClose() -> WebSocketCloseRequest? {
        state.withLock { $0.takePendingClose() }
    }

    /// Whether a close was requested.
    package var isClosing: Bool { state.withLock { $0.isClosing } }

    /// Ends the socket for everyone.
    /// - Parameters:
    ///   - end: What the consumer gets from now on.
    ///   - closeFrame: The close frame that ended the socket, if any.
    package func finish(_ end: WebSocketDelivery, closeFrame: WebSocketClose?) {
        apply(state.withLock { $0.finish(end, closeFrame: closeFrame) })
    }

    /// The close frame that ended the socket; `nil` while it is open or when it ended without one.
    package var closeFrame: WebSocketClose? { state.withLock { $0.closeFrame } }

    /// Whether the socket ended.
    package var hasEnded: Bool { state.withLock { $0.end != nil } }

    /// Sends a ping with `send` and waits for its pong.
    /// - Parameters:
    ///   - payload: The ping's payload, as sent (at most 125 bytes).
    ///   - send: Sends the ping.
    /// - Throws: ``FerryError``: `send`'s error; the error that ended the socket first; ``FerryError/Reason/cancelled``
    ///   when the awaiting task is cancelled (the socket stays open).
    func ping(
        payload: [UInt8], send: () async throws(FerryError) -> Void
    ) async throws(FerryError) {
        // Noted before it is sent: its pong may be read before `send` returns.
        let id = try state.withLock { $0.pingSent(payload: payload) }.get()
        do {
            try await send()
        } catch {
            apply(state.withLock { $0.pingAbandoned(id) })
            throw error
        }
        let answer = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                apply(state.withLock { $0.pingerWaits(id, continuation: continuation) })
            }
        } onCancel: {
            apply(state.withLock { $0.pingAbandoned(id) })
        }
        try answer.get()
    }

    /// A pong arrived: the pings it answers are resumed.
    package func pongArrived(payload: some Collection<UInt8>) {
        let bytes = Array(payload)
        apply(state.withLock { $0.pongArrived(payload: bytes) })
    }

    /// Notes what a protocol handler below the engine saw go wrong; the first fault is kept.
    func noteFault(_ code: WebSocketCloseCode) {
        state.withLock { if $0.fault == nil { $0.fault = code } }
    }

    /// The fault noted, if any.
    var fault: WebSocketCloseCode? { state.withLock { $0.fault } }

    private func apply(_ action: Machine.Action) {
        if let (continuation, value) = action.consumer { continuation.resume(returning: value) }
        if let (continuation, value) = action.readingEnd { continuation.resume(returning: value) }
        if let (continuation, value) = action.closer { continuation.resume(returning: value) }
        for (continuation, value) in action.pingers { continuation.resume(returning: value) }
    }
}

/// Reads a socket's next message, in the consumer's task (see ``WebSocketInbox/attach(_:)``): `nil` when the
/// socket's inbound ended; an error when the read failed, which the engine gets back from
/// ``WebSocketInbox/readingEnds()``.
package final class WebSocketReader: Sendable {
    private let read: @Sendable () async throws -> WebSocketMessage?

    /// Creates a reader.
    /// - Parameter read: Reads the next message; called by one task at a time.
    package init(_ read: @escaping @Sendable () async throws -> WebSocketMessage?) {
        self.read = read
    }

    /// Reads the next message.
    func next() async throws -> WebSocketMessage? {
        try await read()
    }
}
