import Foundation

/// A transport that opens WebSockets itself instead of Ferry's engine: FerryTesting's `InMemoryTransport` does, so
/// that WebSocket code is tested without a network, in a build without the `WebSocket` trait too.
///
/// ``WebSocketConnection`` asks the session's transport first: when it adopts this protocol, it gets the upgrade
/// request as the pipeline prepared it (default headers, interceptors, cookies) and runs the socket; otherwise the
/// engine of the build does. Ferry then treats the answer as it treats the engine's: it stores the cookies of the
/// head (of a refusal's too), checks the subprotocol the head names against those offered, and maps a thrown error
/// that is not a ``FerryError`` as it maps a transport's.
package protocol WebSocketProviding: Sendable {
    /// Upgrades `request` and starts the socket.
    ///
    /// The socket's task drives `inbox` as the engine does: ``WebSocketInbox/attach(_:)`` with the reader the
    /// consumer reads each message with (in its own task, only when it wants one), ``WebSocketInbox/closerWaits()``
    /// for a close to send, ``WebSocketInbox/readingEnds()`` before the close handshake reads on,
    /// ``WebSocketInbox/readerStopped()``, and ``WebSocketInbox/finish(_:closeFrame:)`` when the socket ends.
    /// - Parameters:
    ///   - request: The prepared upgrade request.
    ///   - options: The size limit and the close timeout.
    ///   - inbox: Where the socket's messages, close requests and end meet.
    /// - Returns: The open socket.
    /// - Throws: A refused upgrade as ``FerryError/Reason/unacceptableStatus(_:)`` with the head and the body
    ///   prefix, or any error a transport may throw.
    func openWebSocket(
        _ request: Request, options: WebSocketOptions, inbox: WebSocketInbox
    ) async throws -> WebSocketOpen
}

/// An open socket, whichever engine or provider opened it.
package struct WebSocketOpen: Sendable {
    /// The request that was sent.
    package let request: Request
    /// The `101 Switching Protocols` response.
    package let head: HTTPResponse
    /// Sends one frame; throws ``FerryError`` when it cannot.
    package let send: @Sendable (WebSocketOutgoingFrame) async throws(FerryError) -> Void
    /// The task that runs the socket until it ends; its end is in the inbox.
    package let run: Task<Void, Never>

    /// Creates an open socket.
    /// - Parameters:
    ///   - request: The request that was sent.
    ///   - head: The `101` response.
    ///   - send: Sends one frame.
    ///   - run: The socket's task.
    package init(
        request: Request, head: HTTPResponse,
        send: @escaping @Sendable (WebSocketOutgoingFrame) async throws(FerryError) -> Void, run: Task<Void, Never>
    ) {
        self.request = request
        self.head = head
        self.send = send
        self.run = run
    }
}

/// A frame the client sends.
package enum WebSocketOutgoingFrame: Sendable, Hashable {
    /// A text or binary message.
    case message(WebSocketMessage)
    /// A ping with its payload (at most 125 bytes are sent).
    case ping(Data)
}
