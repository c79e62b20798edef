import Foundation

extension Pipeline {
    /// Records a request about to be handed to the transport and, under the session's limits, waits for a slot for
    /// its host, first come first served. A redirect to the same host keeps the slot it has; one to another host
    /// gives it back and waits for the new host's.
    ///
    /// Without limits this records the request and returns: no lock, no allocation.
    /// - Parameters:
    ///   - request: The request (an attempt's, or a redirect's).
    ///   - hop: The redirects followed before it within its attempt.
    ///   - controls: The transfer's stop signal: a stop ends the wait at once.
    ///   - exchange: What is measured; it holds the slot.
    /// - Throws: The stop's reason or ``FerryError/Reason/cancelled`` when the wait was cut short.
    func admit(
        _ request: Request, hop: Int, controls: TransferControls, exchange: inout Exchange
    ) async throws(FerryError) {
        let start = ContinuousClock.now
        exchange.beginHop(request, hop: hop, at: start)
        guard let limiter else { return }
        let host = RequestLimiter.hostKey(of: request.url)
        if exchange.slot?.host == host { return }
        exchange.releaseSlot()
        // The idle timeout does not count the wait; the total timeout does.
        exchange.timeout?.pause()
        defer { exchange.updateHop { $0.queueWait = start.duration(to: .now) } }
        try await limiter.acquire(host, signal: controls.signal)
        exchange.slot = Exchange.Slot(limiter: limiter, host: host)
        if let error = controls.signal.error { throw error }
        if Task.isCancelled { throw FerryError(.cancelled) }
        exchange.timeout?.noteActivity()
    }
}
