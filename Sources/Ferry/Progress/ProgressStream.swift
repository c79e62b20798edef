/// The progress of one side of a transfer (upload or download), as an `AsyncSequence` of snapshots.
///
/// Every iteration is a consumer of its own, so several tasks can follow the same transfer. A consumer that starts
/// late gets the latest snapshot at once; every consumer gets the final one (``TransferProgress/isFinished``), then
/// the sequence ends. Snapshots are throttled (at most one per 50 ms, plus the first and the last) and each
/// consumer holds at most one unread snapshot, so a slow consumer sees fewer values, never a growing buffer.
///
/// Iterating it starts the transfer when nobody did (on a task of its own, the same transfer a later `await` joins),
/// so the loop works as written:
///
/// ```swift
/// let download = session.download(url, to: destination)
/// for await progress in download.downloadProgress {
///     print(progress.completedBytes, progress.totalBytes ?? -1)
/// }
/// let file = try await download.value
/// ```
///
/// That start costs one unstructured task, on this path only; a transfer someone already awaits runs in the
/// awaiting task as always. A stream's progress iterated before its ``StreamTask/bytes`` have a consumer reads and
/// drops the body, as ``StreamTask/response`` does: make the `bytes` iterator first to read the body yourself.
public struct ProgressStream: AsyncSequence, Sendable {
    /// A snapshot.
    public typealias Element = TransferProgress

    let reporter: ProgressReporter
    /// The transfer to start when nobody did, with the validation of the task it came from.
    let transfer: Transfer?
    let validation: Validation

    init(reporter: ProgressReporter, starting transfer: Transfer? = nil, validation: Validation = .none) {
        self.reporter = reporter
        self.transfer = transfer
        self.validation = validation
    }

    /// Starts a consumer, and the transfer when nobody started it (after subscribing: nothing is missed).
    /// - Returns: An iterator that ends after the final snapshot.
    public func makeAsyncIterator() -> AsyncStream<TransferProgress>.Iterator {
        let iterator = reporter.subscribe().makeAsyncIterator()
        transfer?.start(validation: validation)
        return iterator
    }
}

extension Transfer {
    /// The response body's progress, which starts this transfer with `validation` when iterated first.
    func downloadProgress(_ validation: Validation) -> ProgressStream {
        ProgressStream(reporter: controls.downloadProgress, starting: self, validation: validation)
    }

    /// The request body's progress, which starts this transfer with `validation` when iterated first.
    func uploadProgress(_ validation: Validation) -> ProgressStream {
        ProgressStream(reporter: controls.uploadProgress, starting: self, validation: validation)
    }
}
