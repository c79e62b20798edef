import Foundation

/// A WebSocket in Ferry's vocabulary: made by ``Session/webSocket(_:protocols:headers:options:)``, opened when
/// first used, in the task that uses it.
///
/// ```swift
/// let socket = session.webSocket("wss://echo.example.com/chat", protocols: ["chat.v2"])
/// try await socket.send(.text("hello"))
/// for try await message in socket.messages {
///     if case .text(let text) = message { print(text) }
/// }
/// ```
///
/// The handshake (awaiting ``head`` or ``subprotocol``, sending, or iterating ``messages``) runs in the awaiting
/// task: the session's default headers, interceptors and cookie jar apply to the upgrade request first. A refused
/// upgrade throws ``FerryError`` with ``FerryError/Reason/unacceptableStatus(_:)``, the response head and the start
/// of its body.
///
/// ``messages`` reads one message at a time, only when its iterator asks: a slow reader slows the socket (the
/// server's frames wait in the kernel), nothing is buffered beyond the message in hand. Pings are answered while a
/// message is being read. The socket closes with ``close(code:reason:)``; when the task iterating ``messages`` is
/// cancelled (1001, going away); when the server sends something Ferry must refuse (1007 for a text message that
/// is not UTF-8, 1009 past ``WebSocketOptions/maximumMessageSize``, 1002 for a protocol error), which ends
/// ``messages`` with ``FerryError/Reason/webSocketClosed(_:)``; and when the last copy of the task goes away
/// (1001).
///
/// Needs the `WebSocket` package trait: without it, every use throws at once an error whose message names the
/// trait, except on FerryTesting's `InMemoryTransport`, whose `InMemoryWebSocketServer` serves WebSockets in memory
/// in every build.
public struct WebSocketTask: Sendable {
    let connection: WebSocketConnection
    let lifetime: WebSocketLifetime

    init(connection: WebSocketConnection) {
        self.connection = connection
        self.lifetime = WebSocketLifetime(inbox: connection.inbox)
    }

    /// The server's messages, one at a time; iterate once, from one task at a time. The sequence ends when the
    /// socket closes (``closeFrame`` then says how).
    public var messages: WebSocketMessages { WebSocketMessages(task: self) }

    /// The response that accepted the upgrade (`101 Switching Protocols`); opens the socket when needed.
    /// - Throws: ``FerryError``: the handshake failed.
    public var head: HTTPResponse {
        get async throws(FerryError) { try await connection.open().head }
    }

    /// The subprotocol the server chose among those offered, or `nil` when it chose none; opens the socket when
    /// needed.
    /// - Throws: ``FerryError``: the handshake failed.
    public var subprotocol: String? {
        get async throws(FerryError) { try await connection.open().head.headers["Sec-WebSocket-Protocol"] }
    }

    /// How the socket ended: the close frame the server sent or answered with (Ferry's own code when Ferry closed
    /// it over a fault); `nil` while it is open, or when it ended without a close frame.
    public var closeFrame: WebSocketClose? {
        get async { connection.inbox.closeFrame }
    }

    /// Sends a message, opening the socket when needed.
    /// - Parameter message: A text or binary message, sent as one frame.
    /// - Throws: ``FerryError``: the handshake failed, or ``FerryError/Reason/webSocketClosed(_:)`` when the
    ///   socket is closing or closed.
    public func send(_ message: WebSocketMessage) async throws(FerryError) {
        try await connection.send(.message(message))
    }

    /// Sends a ping, opening the socket when needed, without waiting for the server's pong (``ping(_:)`` waits).
    /// - Parameter payload: Up to 125 bytes (a longer payload is cut).
    /// - Throws: ``FerryError``: as ``send(_:)``.
    public func sendPing(_ payload: Data = Data()) async throws(FerryError) {
        try await connection.send(.ping(payload))
    }

    /// Sends a ping, opening the socket when needed, and waits for the server's pong.
    ///
    /// A pong answers the ping whose payload it echoes and every ping sent before that one (a server may answer
    /// only the latest of several, RFC 6455 §5.5.3). Pongs are read as the connection reads, whether or not a task
    /// iterates ``messages``; while reading pauses for unread messages (back-pressure), a pong waits behind them.
    /// There is no time limit: cancel the awaiting task to stop waiting (the socket stays open), or close the
    /// socket.
    /// - Parameter payload: Up to 125 bytes (a longer payload is cut); empty by default.
    /// - Returns: The round trip: from sending the ping to the pong's arrival, measured in the awaiting task.
    /// - Throws: ``FerryError``: as ``send(_:)``; ``FerryError/Reason/webSocketClosed(_:)`` (or the error that ended
    ///   the socket) when it ends before the pong; ``FerryError/Reason/cancelled`` when the awaiting task is
    ///   cancelled.
    @discardableResult
    public func ping(_ payload: Data = Data()) async throws(FerryError) -> Duration {
        try await connection.ping(payload)
    }

    /// Closes the socket and waits for the close handshake (at most ``WebSocketOptions/closeTimeout``). A socket
    /// that was never opened is only marked closed; closing again does nothing.
    ///
    /// Reading stops: a message still on its way is read past. ``close(code:reason:drainingMessages:)`` keeps
    /// reading instead.
    /// - Parameters:
    ///   - code: The close code; 1000 (normal closure) by default.
    ///   - reason: A short reason (at most 123 bytes of UTF-8).
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        await connection.close(code: code, reason: String(decoding: Array(reason.utf8.prefix(123)), as: UTF8.self))
    }

    /// Closes the socket as ``close(code:reason:)`` does; with `drainingMessages`, the task iterating ``messages``
    /// still gets the messages the server sent before its close frame (replies already on their way, RFC 6455
    /// §1.4), then the end of the sequence. Call it from another task than the one iterating. If that task stops
    /// asking for messages, they are read past after ``WebSocketOptions/closeTimeout``.
    /// - Parameters:
    ///   - code: The close code; 1000 (normal closure) by default.
    ///   - reason: A short reason (at most 123 bytes of UTF-8).
    ///   - drainingMessages: Whether the messages still on their way go to the task iterating ``messages``.
    public func close(
        code: WebSocketCloseCode = .normalClosure, reason: String = "", drainingMessages: Bool
    ) async {
        await connection.close(
            code: code, reason: String(decoding: Array(reason.utf8.prefix(123)), as: UTF8.self),
            draining: drainingMessages)
    }
}

/// Closes a socket with 1001 (going away) when the last copy of its task goes away.
final class WebSocketLifetime: Sendable {
    let inbox: WebSocketInbox

    init(inbox: WebSocketInbox) {
        self.inbox = inbox
    }

    deinit {
        inbox.requestClose(.goingAway, reason: "")
        inbox.stopReading()
    }
}
