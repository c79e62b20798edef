/// What a running transfer shares with the pipeline and its transport: how it is stopped, where progress goes, and
/// how a transport that cannot pause buffers unread bytes.
final class TransferControls: Sendable {
    /// `nil` when the pipeline reads the body as fast as it arrives (memory, downloads).
    let bufferOptions: StreamOptions?
    /// The request's identity in monitor events.
    let id = RequestID.next()
    /// How the transfer is stopped from outside its task.
    let signal = StopSignal()
    /// The response body's progress.
    let downloadProgress = ProgressReporter()
    /// The request body's progress.
    let uploadProgress = ProgressReporter()

    init(bufferOptions: StreamOptions? = nil) {
        self.bufferOptions = bufferOptions
    }
}
