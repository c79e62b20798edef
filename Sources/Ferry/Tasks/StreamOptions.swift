/// How a streamed response buffers what its consumer has not read yet, on a transport that cannot pause reading.
///
/// A stream's body is pulled by the task that iterates it. A transport that can pause reading (AsyncHTTPClient,
/// `InMemoryTransport`) fetches the next chunk only when the consumer asks for it: a slow consumer holds the server
/// back through the connection itself, nothing is buffered, and these options do not apply. URLSession cannot
/// pause: FoundationNetworking on Linux ignores the response disposition, and `suspend()` restarts the request. Its
/// chunks keep arriving while the consumer is busy, so Ferry holds up to ``bufferSize`` unread bytes in memory and
/// lets the ``overflow`` policy decide what happens past that: spill the excess to a temporary file (deleted once
/// the consumer has read it, or when the stream ends early), or fail. Memory never grows past ``bufferSize``
/// because a consumer is slow. A transport reads these options from ``TransportContext/bufferOptions``.
public struct StreamOptions: Sendable, Hashable {
    /// What happens when the in-memory buffer is full and the transport cannot pause.
    public enum OverflowPolicy: Sendable, Hashable {
        /// Writes the excess to a temporary file, up to `maximumBytes` unread bytes on disk, then fails with
        /// ``FerryError/Reason/streamBufferOverflow(limit:)``.
        case spillToDisk(maximumBytes: Int64)
        /// Fails with ``FerryError/Reason/streamBufferOverflow(limit:)``.
        case fail
    }

    /// The most unread bytes held in memory by a transport that cannot pause; 4 MiB by default.
    public var bufferSize: Int
    /// What happens past ``bufferSize`` when the transport cannot pause; spilling up to 1 GiB by default.
    public var overflow: OverflowPolicy

    /// Creates options.
    /// - Parameters:
    ///   - bufferSize: The most unread bytes held in memory by a transport that cannot pause; at least 1.
    ///   - overflow: What happens past it when the transport cannot pause.
    public init(bufferSize: Int = 4 << 20, overflow: OverflowPolicy = .spillToDisk(maximumBytes: 1 << 30)) {
        self.bufferSize = max(1, bufferSize)
        self.overflow = overflow
    }
}
