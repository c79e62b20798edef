/// How Ferry stops a running request from outside its task (a timeout, `cancel()`, a session shutdown): records
/// the reason once and calls the handler the transport installed, outside the lock.
///
/// Its state is a ``StateMachine`` behind a lock. A value that cannot be copied, held inside its transfer's
/// ``TransferControls``: whoever must stop a request, or learn that it was stopped, holds the controls. One object
/// fewer per request than a class of its own (17 → 16 allocations per in-memory `GET`, Benchmarks/README.md,
/// "Two objects fewer per request").
struct StopSignal: ~Copyable, Sendable {
    typealias Handler = @Sendable (FerryError) -> Void

    private let state = Locked(StateMachine<Handler>())

    init() {}

    /// Why the request was stopped, once it was.
    var error: FerryError? { state.withLock { $0.error } }

    /// Stops the request with `error`; only the first call counts.
    func stop(_ error: FerryError) {
        state.withLock { $0.stop(error) }?(error)
    }

    /// Calls `handler` when the request is stopped (at once when it already was), replacing the previous handler.
    func install(_ handler: @escaping Handler) {
        if let error = state.withLock({ $0.install(handler) }) { handler(error) }
    }

    /// Removes the handler.
    func removeHandler() {
        state.withLock { $0.removeHandler() }
    }
}
