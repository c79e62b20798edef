/// A snapshot of how far a transfer has come, as a progress stream delivers it.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes moved so far (for a resumed download, the bytes already on disk included).
    public var completedBytes: Int64
    /// The total, when the transfer declared it (`Content-Length`, a file's size); `nil` when unknown.
    public var totalBytes: Int64?
    /// Average bytes per second since the transfer started; `nil` until time has passed.
    public var bytesPerSecond: Double?
    /// Whether this is the last snapshot: the transfer has ended, successfully or not.
    public var isFinished: Bool

    /// Creates a snapshot.
    /// - Parameters:
    ///   - completedBytes: Bytes moved so far.
    ///   - totalBytes: The expected total, if known.
    ///   - bytesPerSecond: The average throughput, if known.
    ///   - isFinished: Whether the transfer has ended.
    public init(completedBytes: Int64, totalBytes: Int64?, bytesPerSecond: Double? = nil, isFinished: Bool = false) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.bytesPerSecond = bytesPerSecond
        self.isFinished = isFinished
    }

    /// The part done, from 0 to 1; `nil` when the total is unknown.
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }

    /// How long the rest should take at the average throughput; `nil` when the total or the throughput is unknown.
    public var estimatedTimeRemaining: Duration? {
        guard let totalBytes, let bytesPerSecond, bytesPerSecond > 0 else { return nil }
        let remaining = max(0, totalBytes - completedBytes)
        return .milliseconds(Int64((Double(remaining) / bytesPerSecond * 1000).rounded()))
    }
}
