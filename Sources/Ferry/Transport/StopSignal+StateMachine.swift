extension StopSignal {
    /// Whether Ferry stopped the request, and who to tell: a plain value, tested alone.
    struct StateMachine<Handler> {
        private enum State {
            case running(Handler?)
            case stopped(FerryError)
        }

        private var state = State.running(nil)

        /// Why the request was stopped, once it was.
        var error: FerryError? {
            if case .stopped(let error) = state { error } else { nil }
        }

        /// Stops the request: the first call wins and returns the handler to call with `error`.
        mutating func stop(_ error: FerryError) -> Handler? {
            guard case .running(let handler) = state else { return nil }
            state = .stopped(error)
            return handler
        }

        /// Installs `handler` in place of the previous one; returns the error to call it with at once when the
        /// request was already stopped.
        mutating func install(_ handler: Handler) -> FerryError? {
            switch state {
            case .running: state = .running(handler); return nil
            case .stopped(let error): return error
            }
        }

        /// Removes the handler (its wait is over).
        mutating func removeHandler() {
            if case .running = state { state = .running(nil) }
        }
    }
}
