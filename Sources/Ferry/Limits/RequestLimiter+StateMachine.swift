extension RequestLimiter {
    /// Who holds a slot and who waits for one, first come first served: a plain value, tested alone.
    ///
    /// A request asks for a slot for its host (``acquire(_:)``); it gets one at once when its host and the session
    /// have room, else it joins the queue and then parks its `Waiter` (``park(_:waiter:)``). A released slot goes to
    /// the earliest waiters that can run (``release(_:)``): a waiter whose host is full does not hold back a later one
    /// for another host. A cancelled waiter leaves the queue at once (``cancel(_:error:)``).
    struct StateMachine<Waiter> {
        /// What ``acquire(_:)`` decided.
        enum AcquireAction: Equatable {
            /// The slot is taken: go.
            case granted
            /// Queued under this ticket: park a waiter with ``park(_:waiter:)``.
            case queued(UInt64)
        }

        /// What ``park(_:waiter:)`` decided.
        enum ParkAction {
            /// The waiter waits; a release or a cancellation resumes it.
            case parked
            /// Settled before the waiter was parked: resume it at once, with the error or `nil` when granted.
            case resume(FerryError?)
        }

        /// A waiter to resume, outside the lock, with an error or `nil` when granted.
        struct Resumption {
            let waiter: Waiter
            let error: FerryError?
        }

        private struct Entry {
            let ticket: UInt64
            let host: String
            var waiter: Waiter?
        }

        /// The most requests one host may have in flight.
        let perHost: Int
        /// The most requests the session may have in flight.
        let total: Int
        private var inFlight = 0
        private var hosts: [String: Int] = [:]
        private var queue: [Entry] = []
        /// Tickets settled before their waiter was parked: `nil` for granted, else the error.
        private var settled: [UInt64: FerryError?] = [:]
        private var nextTicket: UInt64 = 0

        /// A state with no slot taken.
        /// - Parameters:
        ///   - perHost: The per-host limit, `nil` for none; at least 1.
        ///   - total: The per-session limit, `nil` for none; at least 1.
        init(perHost: Int?, total: Int?) {
            self.perHost = perHost.map { max($0, 1) } ?? .max
            self.total = total.map { max($0, 1) } ?? .max
        }

        /// How many requests hold a slot.
        var inFlightCount: Int { inFlight }

        /// How many requests wait.
        var waitingCount: Int { queue.count }

        /// How many requests hold a slot for `host`.
        func inFlightCount(for host: String) -> Int { hosts[host] ?? 0 }

        /// Takes a slot for `host` when it and the session have room, else queues the request.
        mutating func acquire(_ host: String) -> AcquireAction {
            if hasRoom(for: host) {
                take(host)
                return .granted
            }
            nextTicket += 1
            queue.append(Entry(ticket: nextTicket, host: host, waiter: nil))
            return .queued(nextTicket)
        }

        /// Parks the waiter of a queued ticket, unless the ticket was settled meanwhile.
        mutating func park(_ ticket: UInt64, waiter: Waiter) -> ParkAction {
            if let outcome = settled.removeValue(forKey: ticket) { return .resume(outcome) }
            guard let index = queue.firstIndex(where: { $0.ticket == ticket }) else {
                return .resume(FerryError(.cancelled))
            }
            queue[index].waiter = waiter
            return .parked
        }

        /// Removes a waiting ticket from the queue at once; does nothing when it already holds its slot (the caller
        /// then finds the stop itself and releases the slot).
        /// - Returns: The waiter to resume with `error`, when it was parked.
        mutating func cancel(_ ticket: UInt64, error: FerryError) -> Resumption? {
            guard let index = queue.firstIndex(where: { $0.ticket == ticket }) else { return nil }
            let entry = queue.remove(at: index)
            guard let waiter = entry.waiter else {
                settled[ticket] = .some(error)
                return nil
            }
            return Resumption(waiter: waiter, error: error)
        }

        /// Gives back a slot of `host` and hands slots to the earliest waiters that can run now.
        /// - Returns: The parked waiters granted a slot, to resume in order.
        mutating func release(_ host: String) -> [Resumption] {
            guard let count = hosts[host], count > 0 else {
                assertionFailure("released a slot of \(host) that was not taken")
                return []
            }
            hosts[host] = count > 1 ? count - 1 : nil
            inFlight -= 1
            var granted: [Resumption] = []
            var index = queue.startIndex
            while index < queue.endIndex, inFlight < total {
                let entry = queue[index]
                guard hasRoom(for: entry.host) else {
                    index += 1
                    continue
                }
                queue.remove(at: index)
                take(entry.host)
                if let waiter = entry.waiter {
                    granted.append(Resumption(waiter: waiter, error: nil))
                } else {
                    settled[entry.ticket] = .some(nil)
                }
            }
            return granted
        }

        private func hasRoom(for host: String) -> Bool {
            inFlight < total && (hosts[host] ?? 0) < perHost
        }

        private mutating func take(_ host: String) {
            inFlight += 1
            hosts[host, default: 0] += 1
        }
    }
}
