#if AsyncHTTPClient
import Foundation
import NIOCore

/// A stream request body, read by a task of Ferry's ahead of the engine (up to a budget of bytes) and handed to
/// AsyncHTTPClient as the engine asks for it.
///
/// The engine's async API reads a body sequence in a task of its own that nothing cancels: a source that never
/// produced its next chunk kept that task, and the source, waiting after the request had ended. Here the engine waits
/// on the pump instead, and ``stop()`` (the request ended) cancels the task that reads the source, whose iteration then
/// ends as a cancelled one does, and ends the engine's wait with an error. A source that ignores cancellation keeps
/// the pump's task until it produces or ends.
///
/// ``start()`` runs in the task that sends the request, so the source is read with its priority and task-local
/// values. The task reads ahead of the engine, so that a source with a chunk ready costs the engine no wait for
/// another task: read only on the engine's demand, each chunk took two hops between tasks, and under the test suite's
/// load (a cooperative thread answering seconds late) a two-chunk body ran into its idle timeout in four runs of four
/// (RELIABILITY.md, "The two cooperative threads"). It reads on while what waits weighs less than `budget` (a chunk
/// weighs its bytes plus ``chunkOverhead``, so that many tiny or empty chunks are bounded too: at most `budget` plus
/// one chunk is held), then parks until at most half the budget is left: one wake of the reader per half budget
/// instead of one per chunk. Woken per chunk, 16 KiB chunks uploaded at 0.83× the raw engine; with the budget, 0.83×
/// to 0.92× in three runs, inside the spread: what is left is the engine waiting on a reader that fell behind
/// (Benchmarks/README.md, "A body produced as it goes"). A request that ends first drops what was read ahead (a stream
/// body is never sent twice: not retried, not redirected); one that ends just after a read still lets the source see
/// its iteration cancelled.
final class StreamBodyPump: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    private typealias Demand = UnsafeContinuation<ByteBuffer?, any Error>

    /// What the reader does after handing over a chunk.
    private enum ReadOn {
        case now
        case onceTaken
        /// The source ended or failed.
        case never
        /// The request ended; the chunk was dropped.
        case stopped
    }

    private struct State {
        var reader: Task<Void, Never>?
        /// The chunks read ahead, not yet handed to the engine, and what they weigh against the budget.
        var ahead = CircularBuffer<ByteBuffer>()
        var aheadWeight = 0
        /// The engine waiting for the next chunk.
        var demand: Demand?
        /// The reader waiting for the engine to take what was read ahead (`true`) or for the request's end (`false`).
        var idleReader: UnsafeContinuation<Bool, Never>?
        /// The source's end (`nil`) or failure, for an engine that asks again.
        var finished: Result<ByteBuffer?, any Error>?
        var stopped = false
        /// How often the engine woke the parked reader (for tests).
        var readerWakes = 0
    }

    /// What is read ahead at most (and one chunk more), in bytes plus ``chunkOverhead`` a chunk, when nobody says
    /// otherwise.
    static let defaultBudget = 256 * 1024

    /// What each chunk weighs besides its bytes: its storage and its place in the queue, about a hundred bytes, rounded
    /// up so that a source of one-byte chunks is read about 500 ahead, not 262,144.
    static let chunkOverhead = 512

    private let source: ByteSource
    private let counter: UploadCounter
    private let budget: Int
    private let parked: (@Sendable () -> Void)?
    private let state = Locked(State())

    /// - Parameter budget: What the reader keeps ahead of the engine at most, besides the chunk it read last, in
    ///   bytes plus ``chunkOverhead`` a chunk.
    /// - Parameter parked: Called each time the reader parks to wait for room (for tests).
    init(
        _ source: ByteSource, counter: UploadCounter, budget: Int = StreamBodyPump.defaultBudget,
        parked: (@Sendable () -> Void)? = nil
    ) {
        self.source = source
        self.counter = counter
        self.budget = Swift.max(budget, 1)
        self.parked = parked
    }

    /// What a chunk weighs against the budget.
    static func weight(ofBytes count: Int) -> Int {
        count + chunkOverhead
    }

    /// Starts the task that reads the source.
    func start() {
        let reader = Task { [self] in
            var chunks = source.chunks.makeAsyncIterator()
            while true {
                let result: Result<ByteBuffer?, any Error>
                do {
                    result = .success(try await chunks.next().map { ByteBuffer(bytes: $0) })
                } catch {
                    result = .failure(error)
                }
                switch hand(result) {
                case .now:
                    continue
                case .never:
                    return
                case .onceTaken:
                    if await taken() { continue }
                case .stopped:
                    break
                }
                // Stopped between two chunks: one last call in the cancelled task lets the source see its iteration
                // cancelled (an `AsyncStream` ends and calls its `onTermination`), as it does when stopped inside one.
                _ = try? await chunks.next()
                return
            }
        }
        let stopped = state.withLock { state in
            state.reader = reader
            return state.stopped
        }
        if stopped { reader.cancel() }
    }

    /// The request ended: the source is no longer read, and a wait of the engine's fails.
    func stop() {
        let (reader, demand, idleReader) = state.withLock { state in
            state.stopped = true
            state.ahead.removeAll()
            state.aheadWeight = 0
            defer { (state.demand, state.idleReader) = (nil, nil) }
            return (state.reader, state.demand, state.idleReader)
        }
        reader?.cancel()
        demand?.resume(throwing: FerryError(.cancelled))
        idleReader?.resume(returning: false)
    }

    /// Hands what the reader read to a waiting engine, or keeps it for the engine's next demand.
    /// - Returns: When the reader reads on: at once while less than the budget waits, once the engine has taken
    ///   enough, or never (at the source's end or failure, or once the request ended: the chunk is then dropped and
    ///   the reader lets the source see the stop).
    private func hand(_ result: Result<ByteBuffer?, any Error>) -> ReadOn {
        let (demand, readOn) = state.withLock { state -> (Demand?, ReadOn) in
            if state.stopped { return (nil, .stopped) }
            guard case .success(let buffer?) = result else {
                state.finished = result
                return (state.demand.take(), .never)
            }
            if let demand = state.demand.take() { return (demand, .now) }
            state.ahead.append(buffer)
            state.aheadWeight += Self.weight(ofBytes: buffer.readableBytes)
            return (nil, state.aheadWeight < budget ? .now : .onceTaken)
        }
        if let demand {
            if case .success(let buffer?) = result { counter.add(buffer.readableBytes) }
            demand.resume(with: result)
        }
        return readOn
    }

    /// Waits until at most half the budget is left ahead (at once if it already is); `false` once the request ended.
    private func taken() async -> Bool {
        await withUnsafeContinuation { continuation in
            let answer = state.withLock { state -> Bool? in
                if state.stopped { return false }
                if state.aheadWeight <= budget / 2 { return true }
                state.idleReader = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) } else { parked?() }
        }
    }

    /// The next chunk, for the engine (which asks for one at a time).
    private func next() async throws -> ByteBuffer? {
        try await withUnsafeThrowingContinuation { (demand: Demand) in
            let (answer, idleReader) = state.withLock {
                state -> (Result<ByteBuffer?, any Error>?, UnsafeContinuation<Bool, Never>?) in
                if state.stopped || state.demand != nil { return (.failure(FerryError(.cancelled)), nil) }
                if let buffer = state.ahead.popFirst() {
                    state.aheadWeight -= Self.weight(ofBytes: buffer.readableBytes)
                    guard state.aheadWeight <= budget / 2, let reader = state.idleReader.take() else {
                        return (.success(buffer), nil)
                    }
                    state.readerWakes += 1
                    return (.success(buffer), reader)
                }
                if let finished = state.finished { return (finished, nil) }
                state.demand = demand
                return (nil, nil)
            }
            if case .success(let buffer?) = answer { counter.add(buffer.readableBytes) }
            if let answer { demand.resume(with: answer) }
            idleReader?.resume(returning: true)
        }
    }

    /// What the reader holds ahead of the engine, weighed as against the budget (for tests).
    var aheadWeight: Int {
        state.withLock { $0.aheadWeight }
    }

    /// How often the engine woke the parked reader (for tests).
    var readerWakes: Int {
        state.withLock { $0.readerWakes }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let pump: StreamBodyPump

        func next() async throws -> ByteBuffer? {
            try await pump.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pump: self)
    }
}
#endif
