/// Collects byte counts from a transport callback and fans throttled snapshots out to any number of consumers.
///
/// `update` runs on the transport's callbacks: it takes a lock, reads the clock, and yields only when a snapshot is
/// due. Continuations are yielded to under the lock (which keeps snapshots in order) but finished outside it,
/// because finishing one runs its termination handler, which takes the lock again.
///
/// A view of one direction of its transfer's ``TransferControls``, which hold the state.
struct ProgressReporter: Sendable {
    struct State {
        var latest = TransferProgress(completedBytes: 0, totalBytes: nil)
        var start: ContinuousClock.Instant?
        var lastEmission: ContinuousClock.Instant?
        var consumers: [UInt64: AsyncStream<TransferProgress>.Continuation] = [:]
        var nextID: UInt64 = 0
        var finished = false
    }

    enum Direction {
        case download
        case upload
    }

    private let controls: TransferControls
    private let direction: Direction

    /// A reporter of its own (for tests).
    init() {
        self.init(TransferControls(), .download)
    }

    init(_ controls: TransferControls, _ direction: Direction) {
        self.controls = controls
        self.direction = direction
    }

    private func withState<Result: Sendable>(_ body: (inout sending State) -> sending Result) -> Result {
        switch direction {
        case .download: controls.downloadState.withLock(body)
        case .upload: controls.uploadState.withLock(body)
        }
    }

    /// The shortest gap between two snapshots.
    static let interval = Duration.milliseconds(50)

    /// Records the bytes moved so far; yields a snapshot when one is due.
    /// - Parameters:
    ///   - completed: Bytes moved so far.
    ///   - total: The expected total, if known.
    ///   - now: The time of the update; callers that have just read the clock pass it on.
    func update(completed: Int64, total: Int64?, at now: ContinuousClock.Instant = .now) {
        withState { state in
            guard !state.finished else { return }
            let start = state.start ?? now
            state.start = start
            state.latest = Self.snapshot(completed: completed, total: total, start: start, now: now, finished: false)
            if let last = state.lastEmission, last.duration(to: now) < Self.interval { return }
            state.lastEmission = now
            // Yielding under the lock keeps snapshots in order; it never runs a termination handler.
            for consumer in state.consumers.values { consumer.yield(state.latest) }
        }
    }

    /// Sends the final snapshot to every consumer and ends their sequences. Only the first call counts.
    func finish() {
        let now = ContinuousClock.now
        let consumers: [AsyncStream<TransferProgress>.Continuation] = withState { state in
            guard !state.finished else { return [] }
            state.finished = true
            let latest = state.latest
            state.latest = Self.snapshot(
                completed: latest.completedBytes, total: latest.totalBytes, start: state.start ?? now, now: now,
                finished: true)
            guard !state.consumers.isEmpty else { return [] }
            for consumer in state.consumers.values { consumer.yield(state.latest) }
            defer { state.consumers = [:] }
            return Array(state.consumers.values)
        }
        // Finishing runs each consumer's termination handler, which takes the lock: outside it.
        for consumer in consumers { consumer.finish() }
    }

    /// The latest snapshot.
    var latest: TransferProgress { withState { $0.latest } }

    /// How many consumers are iterating.
    var consumerCount: Int { withState { $0.consumers.count } }

    /// Whether any consumer is iterating.
    var hasConsumers: Bool { consumerCount > 0 }

    /// A new consumer: starts with the latest snapshot; ends after the final one.
    func subscribe() -> AsyncStream<TransferProgress> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: TransferProgress.self, bufferingPolicy: .bufferingNewest(1))
        let id: UInt64 = withState { state in
            state.nextID += 1
            return state.nextID
        }
        continuation.onTermination = { [weak controls, direction] _ in
            guard let controls else { return }
            _ = ProgressReporter(controls, direction).withState { $0.consumers.removeValue(forKey: id) }
        }
        // Yielding never runs the termination handler, so it may happen under the lock, which keeps the first
        // snapshot ordered before any later one; finishing does run it, so it happens after.
        let finished: Bool = withState { state in
            continuation.yield(state.latest)
            if !state.finished { state.consumers[id] = continuation }
            return state.finished
        }
        if finished { continuation.finish() }
        return stream
    }

    private static func snapshot(
        completed: Int64, total: Int64?, start: ContinuousClock.Instant, now: ContinuousClock.Instant, finished: Bool
    ) -> TransferProgress {
        let elapsed = start.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0.001 ? Double(completed) / seconds : nil
        return TransferProgress(
            completedBytes: completed, totalBytes: total, bytesPerSecond: rate, isFinished: finished)
    }
}
