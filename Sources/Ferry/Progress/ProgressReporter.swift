/// Collects byte counts from a transport callback and fans throttled snapshots out to any number of consumers.
///
/// `update` runs on the transport's callbacks: it takes a lock, reads the clock, and yields only when a snapshot is
/// due. Continuations are yielded to under the lock (which keeps snapshots in order) but finished outside it,
/// because finishing one runs its termination handler, which takes the lock again.
final class ProgressReporter: Sendable {
    /// The counts as they arrive; a snapshot (with its rate) is made only when someone reads or receives one, so a
    /// transfer nobody watches pays a few stores per update.
    struct State {
        var completed: Int64 = 0
        var total: Int64?
        var start: ContinuousClock.Instant?
        var lastUpdate: ContinuousClock.Instant?
        var lastEmission: ContinuousClock.Instant?
        var consumers: [UInt64: AsyncStream<TransferProgress>.Continuation] = [:]
        var nextID: UInt64 = 0
        var finished = false

        /// The snapshot of the counts so far; its rate runs from the first update to the latest.
        var latest: TransferProgress {
            var rate: Double?
            if let start, let lastUpdate {
                let elapsed = start.duration(to: lastUpdate)
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                if seconds > 0.001 { rate = Double(completed) / seconds }
            }
            return TransferProgress(
                completedBytes: completed, totalBytes: total, bytesPerSecond: rate, isFinished: finished)
        }
    }

    private let state = Locked(State())

    private func withState<Result: Sendable>(_ body: (inout sending State) -> sending Result) -> Result {
        state.withLock(body)
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
            if state.start == nil { state.start = now }
            state.completed = completed
            state.total = total
            state.lastUpdate = now
            guard !state.consumers.isEmpty else { return }
            if let last = state.lastEmission, last.duration(to: now) < Self.interval { return }
            state.lastEmission = now
            // Yielding under the lock keeps snapshots in order; it never runs a termination handler.
            let latest = state.latest
            for consumer in state.consumers.values { consumer.yield(latest) }
        }
    }

    /// Sends the final snapshot to every consumer and ends their sequences. Only the first call counts. The final
    /// rate runs to the last update (the last bytes moved), so finishing reads no clock.
    func finish() {
        let consumers: [AsyncStream<TransferProgress>.Continuation] = withState { state in
            guard !state.finished else { return [] }
            state.finished = true
            guard !state.consumers.isEmpty else { return [] }
            let latest = state.latest
            for consumer in state.consumers.values { consumer.yield(latest) }
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
        continuation.onTermination = { [weak self] _ in
            _ = self?.withState { $0.consumers.removeValue(forKey: id) }
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
}
