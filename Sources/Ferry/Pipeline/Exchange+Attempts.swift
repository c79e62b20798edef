import Foundation

extension Exchange {
    /// A slot taken under the session's limits, given back when the request leaves its host or ends.
    struct Slot: Sendable {
        let limiter: RequestLimiter
        let host: String
    }

    /// Starts the record of a request handed to the transport now; `hop` counts the redirects before it.
    mutating func beginHop(_ request: Request, hop index: Int, at start: ContinuousClock.Instant) {
        endHop(at: start)
        hop = Timeline.Attempt(
            attempt: attempt, hop: index, method: request.method, url: request.url, requestHeaders: request.headers,
            requestBodySize: request.body.map { $0.inMemoryCount } ?? 0, start: start, end: start)
    }

    /// Records a response head: the final one until another comes.
    mutating func received(_ head: HTTPResponse) {
        let now = ContinuousClock.now
        firstResponseByte = firstResponseByte ?? now
        self.head = head
        hop?.responseStart = now
        hop?.response = head
    }

    /// Ends the current request's record, if one is open.
    mutating func endHop(at end: ContinuousClock.Instant = .now, retryDelay: Duration? = nil) {
        guard var ended = hop else { return }
        ended.end = end
        ended.retryDelay = retryDelay
        attempts.append(ended)
        hop = nil
    }

    /// Gives the slot back, if one is held.
    mutating func releaseSlot() {
        guard let slot else { return }
        self.slot = nil
        slot.limiter.release(slot.host)
    }

    /// Every request's record for the outcome, the one still open ending at `end` (with `error`, when it failed).
    func attemptsEnded(at end: ContinuousClock.Instant, error: FerryError?) -> Timeline.Attempts {
        guard var last = hop else { return attempts }
        last.end = end
        if last.failure == nil { last.failure = error?.reason }
        var all = attempts
        all.append(last)
        return all
    }

    /// Ends what the request holds: its timeout registration and its slot.
    mutating func close() {
        timeout?.cancel()
        releaseSlot()
    }
}
