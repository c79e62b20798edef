import Foundation

extension Exchange {
    /// A slot taken under the session's limits, given back when the request leaves its host or ends.
    struct Slot: Sendable {
        let limiter: RequestLimiter
        let host: String
    }

    /// Starts the record of a request handed to the transport now; `hop` counts the redirects before it.
    func beginHop(_ request: Request, hop index: Int, at start: Moment) {
        endHop(at: start)
        attempts.append(
            Timeline.Attempt(
                attempt: attempt, hop: index, method: request.method, url: request.url,
                requestHeaders: request.headers, requestBodySize: request.body.map { $0.inMemoryCount } ?? 0,
                start: start))
        isHopOpen = true
    }

    /// Changes the running request's record, if one is running.
    func updateHop(_ update: (inout Timeline.Attempt) -> Void) {
        if isHopOpen { attempts.updateLast(update) }
    }

    /// Records a response head: the final one until another comes.
    func received(_ head: HTTPResponse) {
        let now = Moment.now
        firstResponseByte = firstResponseByte ?? now
        self.head = head
        updateHop { hop in
            hop.responseStartMoment = now
            hop.response = head
        }
    }

    /// Ends the running request's record, if one is running.
    func endHop(at end: Moment = .now, retryDelay: Duration? = nil) {
        updateHop { hop in
            hop.endMoment = end
            hop.retryDelay = retryDelay
        }
        isHopOpen = false
    }

    /// Gives the slot back, if one is held.
    func releaseSlot() {
        guard let slot else { return }
        self.slot = nil
        slot.limiter.release(slot.host)
    }

    /// Every request's record for the outcome, the one still running ending at `end` (with `error`, when it failed).
    /// Ends it in place, so the record is not copied.
    func attemptsEnded(at end: Moment, error: FerryError?) -> Timeline.Attempts {
        if isHopOpen {
            attempts.updateLast { last in
                last.endMoment = end
                if last.failure == nil { last.failure = error?.reason }
            }
            isHopOpen = false
        }
        return attempts
    }

    /// Ends what the request holds: its timeout registration and its slot.
    func close() {
        timeout?.cancel()
        releaseSlot()
    }
}
