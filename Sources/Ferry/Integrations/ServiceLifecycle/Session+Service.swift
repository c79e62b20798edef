#if ServiceLifecycle
public import ServiceLifecycle

extension Session: Service {
    /// Runs the session as a service of a `ServiceGroup`: waits for the group's graceful shutdown, then ends the
    /// session with ``shutdown(gracePeriod:)`` (``Configuration/shutdownGracePeriod``); a cancelled service ends it
    /// at once, cancelling what is still running.
    public func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            await shutdown(cancellingInFlightRequests: true)
            return
        }
        await shutdown(gracePeriod: configuration.shutdownGracePeriod)
    }
}
#endif
