/// How a streamed response buffers what its consumer has not read yet.
///
/// A transport that can pause reading (back-pressure) stops when the buffer holds ``bufferSize`` bytes and goes on
/// when the consumer has drained it to half. URLSession cannot pause: FoundationNetworking on Linux ignores the
/// response disposition, and `suspend()` restarts the request. For such transports the ``overflow`` policy decides
/// what happens when a slow consumer lets the buffer fill: spill the excess to a temporary file (deleted as it is
/// read and when the stream ends), or fail. Memory never grows past ``bufferSize`` because a consumer is slow.
public struct StreamOptions: Sendable, Hashable {
    /// What happens when the in-memory buffer is full and the transport cannot pause.
    public enum OverflowPolicy: Sendable, Hashable {
        /// Writes the excess to a temporary file, up to `maximumBytes` unread bytes on disk, then fails with
        /// ``FerryError/Reason/streamBufferOverflow(limit:)``.
        case spillToDisk(maximumBytes: Int64)
        /// Fails with ``FerryError/Reason/streamBufferOverflow(limit:)``.
        case fail
    }

    /// The most unread bytes held in memory; 4 MiB by default.
    public var bufferSize: Int
    /// What happens past ``bufferSize`` when the transport cannot pause; spilling up to 1 GiB by default.
    public var overflow: OverflowPolicy

    /// Creates options.
    /// - Parameters:
    ///   - bufferSize: The most unread bytes held in memory.
    ///   - overflow: What happens past it when the transport cannot pause.
    public init(bufferSize: Int = 4 << 20, overflow: OverflowPolicy = .spillToDisk(maximumBytes: 1 << 30)) {
        self.bufferSize = max(1, bufferSize)
        self.overflow = overflow
    }
}
