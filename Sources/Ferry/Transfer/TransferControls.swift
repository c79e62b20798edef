/// What a running transfer shares with the pipeline, its transport and the session's timeout scheduler: how it is
/// stopped, when bytes last moved, where progress goes, and how a transport that cannot pause buffers unread bytes.
final class TransferControls: Sendable {
    /// `nil` when the pipeline reads the body as fast as it arrives (memory, downloads).
    let bufferOptions: StreamOptions?
    /// The request's identity in monitor events.
    let id = RequestID.next()
    /// How the transfer is stopped from outside its task.
    let signal = StopSignal()
    /// When bytes last moved, which the idle timeout measures (noted through ``TimeoutScheduler/Registration``).
    let activity = ActivityStamp()
    /// The response body's progress.
    let downloadProgress = ProgressReporter()
    /// The request body's progress, once someone needs it; whether the transfer finished.
    ///
    /// Made on first use (a request with a body, or a consumer of ``uploadProgress``), so that a request without a
    /// body allocates none: one allocation fewer per in-memory `GET` (16 → 15, Benchmarks/README.md, "Allocations").
    private let upload = Locked((reporter: ProgressReporter?.none, finished: false))

    init(bufferOptions: StreamOptions? = nil) {
        self.bufferOptions = bufferOptions
    }

    /// The request body's progress; made now if nobody asked before (finished already when the transfer is).
    var uploadProgress: ProgressReporter {
        let (reporter, isNew, finished) = upload.withLock { upload in
            if let reporter = upload.reporter { return (reporter, false, upload.finished) }
            let reporter = ProgressReporter()
            upload.reporter = reporter
            return (reporter, true, upload.finished)
        }
        if isNew, finished { reporter.finish() }
        return reporter
    }

    /// The reporter a transport reports the upload to: `nil` for a request without a body that nobody watches.
    func uploadProgress(forBody body: RequestBody?) -> ProgressReporter? {
        body == nil ? upload.withLock { $0.reporter } : uploadProgress
    }

    /// Finishes both progress reporters (sends the final snapshot, ends their streams).
    func finishProgress() {
        downloadProgress.finish()
        upload.withLock { upload in
            upload.finished = true
            return upload.reporter
        }?.finish()
    }
}
