/// How Ferry stops a running request from outside its task (a timeout, `cancel()`, a session shutdown): records
/// the reason once and calls the handler the transport installed, outside the lock.
///
/// A view of its transfer's ``TransferControls``, which hold the state.
struct StopSignal: Sendable {
    typealias Handler = @Sendable (FerryError) -> Void

    private let controls: TransferControls

    /// A signal of its own, for a transfer that has no controls (and for tests).
    init() {
        controls = TransferControls()
    }

    init(_ controls: TransferControls) {
        self.controls = controls
    }

    /// Why the request was stopped, once it was.
    var error: FerryError? { controls.stopState.withLock { $0.error } }

    /// Stops the request with `error`; only the first call counts.
    func stop(_ error: FerryError) {
        controls.stopState.withLock { $0.stop(error) }?(error)
    }

    /// Calls `handler` when the request is stopped (at once when it already was), replacing the previous handler.
    func install(_ handler: @escaping Handler) {
        if let error = controls.stopState.withLock({ $0.install(handler) }) { handler(error) }
    }

    /// Removes the handler.
    func removeHandler() {
        controls.stopState.withLock { $0.removeHandler() }
    }
}
