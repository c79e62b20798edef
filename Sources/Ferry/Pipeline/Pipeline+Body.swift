import Foundation

extension Pipeline {
    /// Reads the body of `opened` into `receiver`'s destination, reporting progress and activity as it goes.
    /// - Returns: What the destination yields for the complete body.
    /// - Throws: ``FerryError``: the destination's refusal, the transport's failure, or the stop's reason. The body
    ///   is released unread on failure; what arrived before stays in the destination.
    func read<Destination: BodyDestination>(
        _ opened: Opened, into receiver: BodyReceiver<Destination>, controls: TransferControls
    ) async throws(FerryError) -> Destination.Output {
        defer { opened.exchange.bytesReceived = receiver.received }
        do {
            try receiver.begin(
                opened.head, length: opened.bodyLength, progress: controls.downloadProgress,
                timeout: opened.exchange.timeout)
            try await opened.body.forEach { chunk in try receiver.write(chunk) }
            return try receiver.finish()
        } catch {
            opened.body.cancel()
            throw failure(error, signal: controls.signal)
        }
    }

    /// Reads a request's body into memory, then applies the body's validation: the outcome of a data transfer.
    func readData(_ open: Opened, controls: TransferControls) async -> TransferOutcome {
        let exchange = open.exchange
        defer { exchange.close() }
        let memory = BodyReceiver(MemoryDestination(limit: open.prepared.maximumBodySize))
        let body: Data
        do {
            body = try await read(open, into: memory, controls: controls)
        } catch {
            return exchange.outcome(body: memory.destination.body, error: error)
        }
        // A deadline that passed while the last bytes came in still counts: the request took too long.
        if let error = controls.signal.error { return exchange.outcome(body: body, error: error) }
        if let write = exchange.cacheWrite {
            await write.cache.store(
                open.head, body: .data(body), for: write.request, requestTime: write.requestTime,
                responseTime: write.responseTime)
        }
        guard open.rejection == nil else { return exchange.outcome(body: body, error: nil) }
        do throws(FerryError) {
            try open.validation.validateBody(
                body, length: Int64(body.count), of: open.head, for: open.prepared.request)
        } catch {
            let outcome = exchange.outcome(body: body, error: error)
            outcome.isRejection = true
            return outcome
        }
        return exchange.outcome(body: body, error: nil)
    }
}

/// Hands a body's chunks to a destination, counting them and reporting progress and activity. A transport may
/// call it from a child task of the pipeline's (``TransportContext/stoppable(_:)``), so its state is under a lock,
/// which is never contended: one chunk at a time.
final class BodyReceiver<Destination: BodyDestination>: Sendable {
    private struct State: ~Copyable {
        var destination: Destination
        var received: Int64 = 0
        var base: Int64 = 0
        var total: Int64?
        var progress: ProgressReporter?
        var timeout: TimeoutScheduler.Registration?
    }

    private let state: Locked<State>

    init(_ destination: Destination) {
        state = Locked(State(destination: destination))
    }

    /// The destination as it is now (for the part of a body that arrived before a failure).
    var destination: Destination { state.withLock { $0.destination } }

    /// Body bytes received.
    var received: Int64 { state.withLock { $0.received } }

    /// Opens the destination for `head`, whose decoded body declares `length` (``Pipeline/Opened/bodyLength``).
    func begin(
        _ head: HTTPResponse, length: Int64?, progress: ProgressReporter, timeout: TimeoutScheduler.Registration?
    ) throws(FerryError) {
        let (base, total): (Int64, Int64?) = try state.withLock { state throws(FerryError) in
            state.base = try state.destination.begin(head, length: length)
            state.total = length.map { $0 + state.base }
            state.progress = progress
            state.timeout = timeout
            return (state.base, state.total)
        }
        progress.update(completed: base, total: total)
    }

    func write(_ chunk: Data) throws(FerryError) {
        let now = ContinuousClock.now
        let (progress, completed, total) = try state.withLock { state throws(FerryError) in
            try state.destination.write(chunk)
            state.received += Int64(chunk.count)
            state.timeout?.noteActivity()  // on the timer's clock, which tests inject
            return (state.progress, state.base + state.received, state.total)
        }
        progress?.update(completed: completed, total: total, at: now)
    }

    func finish() throws(FerryError) -> Destination.Output {
        try state.withLock { state throws(FerryError) in try state.destination.finish() }
    }
}
