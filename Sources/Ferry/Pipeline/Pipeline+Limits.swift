import Foundation

extension Pipeline {
    /// Waits for a slot under the session's limits for the host of a request about to be handed to the transport
    /// (its record begun at `start`), first come first served. A redirect to the same host keeps the slot it has;
    /// one to another host gives it back and waits for the new host's.
    ///
    /// Only a session with limits calls this: without, the pipeline records the request and sends it.
    /// - Parameters:
    ///   - request: The request (an attempt's, or a redirect's).
    ///   - limiter: The session's limiter.
    ///   - start: When the request's record began; the wait is measured from it.
    ///   - controls: The transfer's stop signal: a stop ends the wait at once.
    ///   - exchange: What is measured; it holds the slot.
    /// - Throws: The stop's reason or ``FerryError/Reason/cancelled`` when the wait was cut short.
    func admit(
        _ request: Request, to limiter: RequestLimiter, since start: Moment,
        controls: TransferControls, exchange: Exchange
    ) async throws(FerryError) {
        let host = RequestLimiter.hostKey(of: request.url)
        if exchange.slot?.host == host { return }
        exchange.releaseSlot()
        // The idle timeout does not count the wait (it counts again from the hand-over); the total timeout does.
        exchange.timeout?.pause()
        defer { exchange.updateHop { $0.queueWait = start.duration(to: Moment.now) } }
        try await limiter.acquire(host, signal: controls.signal)
        exchange.slot = Exchange.Slot(limiter: limiter, host: host)
        if let error = controls.signal.error { throw error }
        if Task.isCancelled { throw FerryError(.cancelled) }
    }
}
