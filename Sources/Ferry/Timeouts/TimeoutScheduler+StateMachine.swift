/// The idle and total timeouts of every request of a session, and when the session's one timer should wake.
///
/// No locks and no clock: the owner holds it under its lock and passes the time in. Idle deadlines move lazily:
/// activity only ever moves one later, so a planned wake is never too late; when the timer wakes it finds what
/// is really due and plans again.
extension TimeoutScheduler {
    struct StateMachine {
        /// One request's timeouts.
        struct Entry {
            /// How long the request may go without activity, or `nil` for no idle timeout.
            var idle: Duration?
            /// When the whole request must be done, or `nil` for no total timeout.
            var deadline: ContinuousClock.Instant?
            /// The request, whose last activity the idle timeout measures, and which is stopped when it runs out.
            var request: TransferControls
        }

        /// What the owner must do with its timer after a registration.
        enum TimerAction: Equatable {
            /// Keep the timer as it is.
            case none
            /// Replace the timer with one that wakes at the instant.
            case schedule(at: ContinuousClock.Instant)
        }

        /// What a timer wake found.
        struct Fired {
            /// The entries that ran out, by ascending id, now removed.
            var expired: [(id: UInt64, kind: FerryError.TimeoutKind, request: TransferControls)]
            /// When to wake next, or `nil` when nothing is left and the timer stops.
            var next: ContinuousClock.Instant?
        }

        /// How soon a paused entry is looked at again when its idle timeout is zero or negative.
        static let minimumPausedRecheck = Duration.milliseconds(1)

        /// The registered entries.
        private var entries: [UInt64: Entry] = [:]
        /// When the timer is planned to wake, or `nil` when no timer runs.
        private(set) var plannedWake: ContinuousClock.Instant?

        /// Creates an empty machine, with no timer planned.
        init() {}

        /// Whether no entry is registered.
        var isEmpty: Bool { entries.isEmpty }

        /// How many entries are registered.
        var count: Int { entries.count }

        /// Adds an entry, and says whether the timer must wake earlier than planned for it.
        /// - Parameters:
        ///   - id: The entry's key, unique among registered entries.
        ///   - idle: The idle timeout, or `nil`.
        ///   - deadline: The total deadline, or `nil`.
        ///   - request: The request's controls, whose activity stamp the idle timeout reads.
        ///   - now: The current instant.
        /// - Returns: ``TimerAction/schedule(at:)`` when no timer is planned or the entry may expire before the planned
        ///   wake, else ``TimerAction/none``. An entry with neither timeout never expires and never schedules.
        mutating func register(
            _ id: UInt64, idle: Duration?, deadline: ContinuousClock.Instant?, request: TransferControls,
            now: ContinuousClock.Instant
        ) -> TimerAction {
            entries[id] = Entry(idle: idle, deadline: deadline, request: request)
            let expiry = Self.earliest(deadline, idle.map { now + $0 })
            guard let expiry, plannedWake.map({ expiry < $0 }) ?? true else { return .none }
            plannedWake = expiry
            return .schedule(at: expiry)
        }

        /// Removes an entry, if registered. The planned wake stays: the timer wakes, finds nothing due and plans again.
        /// - Parameter id: The entry's key.
        mutating func remove(_ id: UInt64) {
            entries[id] = nil
        }

        /// Removes and reports the entries that ran out by `now`, and plans the next wake.
        /// - Parameter now: The current instant.
        /// - Returns: The expired entries (a passed total deadline wins over a passed idle one) and the next wake.
        mutating func timerFired(now: ContinuousClock.Instant) -> Fired {
            var expired: [(id: UInt64, kind: FerryError.TimeoutKind, request: TransferControls)] = []
            var next: ContinuousClock.Instant?
            for (id, entry) in entries {
                switch Self.check(entry, now: now) {
                case .expired(let kind): expired.append((id, kind, entry.request))
                case .pending(let recheck): next = Self.earliest(next, recheck)
                }
            }
            for expiry in expired {
                entries[expiry.id] = nil
            }
            expired.sort { $0.id < $1.id }
            plannedWake = next
            return Fired(expired: expired, next: next)
        }

        /// What ``check(_:now:)`` found about one entry.
        private enum Status {
            /// The entry ran out.
            case expired(FerryError.TimeoutKind)
            /// The entry is still running; look again at the instant (`nil`: never).
            case pending(ContinuousClock.Instant?)
        }

        /// Whether `entry` ran out by `now`, and if not, when to look at it again.
        /// - Parameters:
        ///   - entry: The entry.
        ///   - now: The current instant.
        /// - Returns: The entry's status.
        private static func check(_ entry: Entry, now: ContinuousClock.Instant) -> Status {
            if let deadline = entry.deadline, deadline <= now { return .expired(.total) }
            guard let idle = entry.idle else { return .pending(entry.deadline) }
            let idleExpiry: ContinuousClock.Instant
            if let lastActivity = entry.request.activity.lastActivity {
                idleExpiry = lastActivity + idle
                if idleExpiry <= now { return .expired(.idle) }
            } else {
                // Paused: idle time does not count, but once resumed the idle deadline is at least `now + idle` away.
                idleExpiry = now + max(idle, minimumPausedRecheck)
            }
            return .pending(earliest(entry.deadline, idleExpiry))
        }

        /// The earlier of two optional instants.
        /// - Parameters:
        ///   - first: An instant, or `nil`.
        ///   - second: An instant, or `nil`.
        /// - Returns: The earlier one, or the one that is not `nil`, or `nil`.
        private static func earliest(
            _ first: ContinuousClock.Instant?, _ second: ContinuousClock.Instant?
        ) -> ContinuousClock.Instant? {
            guard let first else { return second }
            guard let second else { return first }
            return min(first, second)
        }
    }
}
