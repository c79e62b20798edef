/// Where timeouts read the time and sleep; injected so tests control time.
protocol TimeoutClock: Sendable {
    /// The current instant.
    var now: ContinuousClock.Instant { get }

    /// Suspends until `deadline` has passed; returns at once when it already has.
    /// - Parameter deadline: The instant to wake at.
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

/// The real clock: `ContinuousClock`, which keeps counting while the machine sleeps.
struct SystemTimeoutClock: TimeoutClock {
    /// Creates the system clock.
    init() {}

    /// `ContinuousClock.now`.
    var now: ContinuousClock.Instant { .now }

    /// Sleeps on `ContinuousClock` until `deadline`.
    /// - Parameter deadline: The instant to wake at.
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline, tolerance: nil, clock: .continuous)
    }
}
