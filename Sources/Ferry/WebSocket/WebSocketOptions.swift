/// How a WebSocket behaves: its size limit, how long a close may take, compression and keep-alive pings.
public struct WebSocketOptions: Sendable {
    /// The largest message (and so the largest frame) accepted, in bytes; a larger one closes the socket with
    /// ``WebSocketCloseCode/messageTooBig`` and fails ``WebSocketTask/messages``. 1 MiB by default.
    public var maximumMessageSize: Int
    /// How long the close handshake may take before the connection is dropped. 10 seconds by default.
    public var closeTimeout: Duration
    /// Whether the upgrade offers `permessage-deflate` (RFC 7692); used when the server accepts it, each message
    /// then decompressed up to ``maximumMessageSize``. Off by default.
    public var offersCompression: Bool
    /// How often to ping the server while the socket is open, or `nil` (the default) for no keep-alive pings. When a
    /// ping is still unanswered as the next one falls due, the peer is taken for gone: the socket closes with
    /// ``WebSocketCloseCode/goingAway`` and ``WebSocketTask/messages`` fails with
    /// ``FerryError/Reason/webSocketClosed(_:)``. Any frame the server sends counts as an answer, and frames are
    /// seen whether or not a task is reading messages. While the connection does not read (back-pressure: unread
    /// messages wait for a slow consumer), an answer may wait unread, so no ping is judged over such a pause.
    public var keepAliveInterval: Duration?

    /// Creates options.
    /// - Parameters:
    ///   - maximumMessageSize: The largest message accepted, in bytes (at least 125, a control frame's payload).
    ///   - closeTimeout: How long the close handshake may take.
    ///   - offersCompression: Whether the upgrade offers `permessage-deflate`.
    ///   - keepAliveInterval: How often to ping the server, or `nil` for never.
    public init(
        maximumMessageSize: Int = 1 << 20, closeTimeout: Duration = .seconds(10), offersCompression: Bool = false,
        keepAliveInterval: Duration? = nil
    ) {
        self.maximumMessageSize = max(125, maximumMessageSize)
        self.closeTimeout = closeTimeout
        self.offersCompression = offersCompression
        self.keepAliveInterval = keepAliveInterval
    }
}
