/// How a WebSocket behaves: its size limit and how long a close may take.
public struct WebSocketOptions: Sendable {
    /// The largest message (and so the largest frame) accepted, in bytes; a larger one closes the socket with
    /// ``WebSocketCloseCode/messageTooBig`` and fails ``WebSocketTask/messages``. 1 MiB by default.
    public var maximumMessageSize: Int
    /// How long the close handshake may take before the connection is dropped. 10 seconds by default.
    public var closeTimeout: Duration
    /// Whether the upgrade offers `permessage-deflate` (RFC 7692); used when the server accepts it, each message
    /// then decompressed up to ``maximumMessageSize``. Off by default.
    public var offersCompression: Bool

    /// Creates options.
    /// - Parameters:
    ///   - maximumMessageSize: The largest message accepted, in bytes (at least 125, a control frame's payload).
    ///   - closeTimeout: How long the close handshake may take.
    ///   - offersCompression: Whether the upgrade offers `permessage-deflate`.
    public init(
        maximumMessageSize: Int = 1 << 20, closeTimeout: Duration = .seconds(10), offersCompression: Bool = false
    ) {
        self.maximumMessageSize = max(125, maximumMessageSize)
        self.closeTimeout = closeTimeout
        self.offersCompression = offersCompression
    }
}
