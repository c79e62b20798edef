/// A point on the continuous clock as Ferry keeps it: the time since a fixed origin (the first use in the process).
///
/// `ContinuousClock.Instant` is not frozen: a value that holds one has its layout worked out at run time, is copied
/// through value witnesses, and in an async function each temporary of it is allocated in the task's allocator (in a
/// fresh task, a malloc whenever a slab runs out). Ferry's own records of a request (the exchange, the timeline's
/// storage, the pipeline's hand-over times) hold a `Moment`, whose layout is a `Duration`'s, and give
/// `ContinuousClock.Instant` only where the public API shows one. Benchmarks/README.md, "Moments instead of
/// instants", has the row that shows it.
struct Moment: Sendable, Hashable, Comparable {
    /// The instant every moment counts from.
    private static let origin = ContinuousClock.now

    /// The time since ``origin``.
    var sinceOrigin: Duration

    /// The moment of `instant`.
    init(_ instant: ContinuousClock.Instant) {
        sinceOrigin = Self.origin.duration(to: instant)
    }

    /// The moment `sinceOrigin` after the origin.
    init(sinceOrigin: Duration) {
        self.sinceOrigin = sinceOrigin
    }

    /// Now, on `ContinuousClock`.
    static var now: Moment { Moment(.now) }

    /// The same point as a `ContinuousClock.Instant`.
    var instant: ContinuousClock.Instant { Self.origin.advanced(by: sinceOrigin) }

    /// The time from this moment to `later`.
    func duration(to later: Moment) -> Duration { later.sinceOrigin - sinceOrigin }

    static func < (lhs: Moment, rhs: Moment) -> Bool { lhs.sinceOrigin < rhs.sinceOrigin }

    static func + (lhs: Moment, rhs: Duration) -> Moment {
        var moment = lhs
        moment.sinceOrigin += rhs
        return moment
    }
}
