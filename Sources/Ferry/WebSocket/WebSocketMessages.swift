/// A WebSocket's incoming messages, read one at a time as the iterator asks (see ``WebSocketTask/messages``).
public struct WebSocketMessages: AsyncSequence, Sendable {
    /// Each element is one whole message.
    public typealias Element = WebSocketMessage
    /// The sequence fails with ``FerryError``.
    public typealias Failure = FerryError

    let task: WebSocketTask

    /// Makes the iterator; the first `next()` opens the socket when nothing else did.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(task: task)
    }

    /// Reads the next message when asked.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let task: WebSocketTask

        /// The next message, or `nil` once the socket has closed.
        /// - Throws: ``FerryError``: the handshake failed, the socket was closed over a fault
        ///   (``FerryError/Reason/webSocketClosed(_:)``) or lost, or the iterating task was cancelled (the socket
        ///   then closes with 1001).
        public mutating func next() async throws(FerryError) -> WebSocketMessage? {
            try await Self.read(task)
        }

        /// The next message; see ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(FerryError) -> WebSocketMessage?
        {
            try await Self.read(task)
        }

        private static func read(_ task: WebSocketTask) async throws(FerryError) -> WebSocketMessage? {
            _ = try await task.connection.ready()
            return try await task.connection.inbox.next()
        }
    }
}
