/// What a running transfer shares with the pipeline: how it is stopped, where progress goes, and how a transport
/// that cannot pause buffers unread bytes.
struct TransferControls: Sendable {
    let signal = StopSignal()
    /// The response body's progress.
    let downloadProgress = ProgressReporter()
    /// The request body's progress.
    let uploadProgress = ProgressReporter()
    /// `nil` when the pipeline reads the body as fast as it arrives (memory, downloads).
    var bufferOptions: StreamOptions?
}
