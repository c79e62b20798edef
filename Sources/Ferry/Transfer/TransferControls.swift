/// What a running transfer shares with the pipeline: how it is stopped, where progress goes, and how a transport
/// that cannot pause buffers unread bytes.
///
/// One object holds the stop state and both progress states, each under its own lock, so that a request allocates
/// one of them instead of three; ``signal``, ``downloadProgress`` and ``uploadProgress`` are views of it.
final class TransferControls: Sendable {
    /// `nil` when the pipeline reads the body as fast as it arrives (memory, downloads).
    let bufferOptions: StreamOptions?
    /// The request's identity in monitor events.
    let id = RequestID.next()

    let stopState = Locked(StopSignal.StateMachine<StopSignal.Handler>())
    let downloadState = Locked(ProgressReporter.State())
    let uploadState = Locked(ProgressReporter.State())

    init(bufferOptions: StreamOptions? = nil) {
        self.bufferOptions = bufferOptions
    }

    /// How the transfer is stopped from outside its task.
    var signal: StopSignal { StopSignal(self) }

    /// The response body's progress.
    var downloadProgress: ProgressReporter { ProgressReporter(self, .download) }

    /// The request body's progress.
    var uploadProgress: ProgressReporter { ProgressReporter(self, .upload) }
}
