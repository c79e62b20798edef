import Synchronization

/// When a request last saw activity, as one atomic integer: the hot path (a body chunk) pays one atomic store, and
/// no shared lock.
///
/// The instant is kept as nanoseconds after ``Moment``'s origin. While paused (a slow stream consumer, not the
/// server, holds the transfer back) there is no last activity, so idle time does not count. A value that cannot be
/// copied, held inside its request's ``TransferControls``, which the timeout scheduler holds: one object fewer per
/// request than a class of its own (16 → 15 allocations per in-memory `GET`, Benchmarks/README.md, "Two objects fewer
/// per request").
struct ActivityStamp: ~Copyable, Sendable {
    /// The stored value that means "paused".
    private static let paused = Int64.min
    /// The last activity as nanoseconds after ``Moment``'s origin, or `paused`.
    private let offset: Atomic<Int64>

    /// Creates a paused stamp: registering the request's timeouts notes its first activity.
    init() {
        offset = Atomic(Self.paused)
    }

    /// Records activity at `now`; resumes a paused stamp.
    /// - Parameter now: The instant of the activity.
    func note(_ now: ContinuousClock.Instant) {
        offset.store(Self.nanoseconds(Moment(now).sinceOrigin), ordering: .relaxed)
    }

    /// Stops idle time from counting until the next ``note(_:)``.
    func pause() {
        offset.store(Self.paused, ordering: .relaxed)
    }

    /// The last activity, or `nil` while paused.
    var lastActivity: ContinuousClock.Instant? {
        let offset = offset.load(ordering: .relaxed)
        return offset == Self.paused ? nil : Moment(sinceOrigin: .nanoseconds(offset)).instant
    }

    /// `duration` in whole nanoseconds, truncated, never equal to `paused`.
    /// - Parameter duration: A duration within ±292 years.
    /// - Returns: The nanoseconds.
    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(seconds * 1_000_000_000 + attoseconds / 1_000_000_000, paused + 1)
    }
}
