/// The progress of one side of a transfer (upload or download), as an `AsyncSequence` of snapshots.
///
/// Every iteration is a consumer of its own, so several tasks can follow the same transfer. A consumer that starts
/// late gets the latest snapshot at once; every consumer gets the final one (``TransferProgress/isFinished``), then
/// the sequence ends. Snapshots are throttled (at most one per 50 ms, plus the first and the last) and each
/// consumer holds at most one unread snapshot, so a slow consumer sees fewer values, never a growing buffer.
///
/// ```swift
/// let download = session.download(url, to: destination)
/// async let file = download.value  // iterating progress does not start the transfer: awaiting does
/// for await progress in download.downloadProgress {
///     print(progress.fractionCompleted ?? 0)
/// }
/// ```
public struct ProgressStream: AsyncSequence, Sendable {
    /// A snapshot.
    public typealias Element = TransferProgress

    let reporter: ProgressReporter

    /// Starts a consumer.
    /// - Returns: An iterator that ends after the final snapshot.
    public func makeAsyncIterator() -> AsyncStream<TransferProgress>.Iterator {
        reporter.subscribe().makeAsyncIterator()
    }
}
