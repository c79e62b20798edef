import Foundation
import Synchronization

/// The bounded buffer between a transport delivering a streamed body and its one consumer.
///
/// The producer (a transport callback) pushes chunks without blocking; the consumer awaits them in order. Up to
/// the capacity they are held in memory; past it, a transport that can pause awaits ``waitForCapacity()`` until the
/// consumer has drained half, and one that cannot has the excess spilled to a temporary file, or the stream fails,
/// as ``StreamOptions`` say. While a spill file exists every new chunk goes to it, so order is kept: memory holds
/// the oldest bytes, the file the newest, and the file is deleted once read to its end.
///
/// Continuations are resumed only after the lock is released.
final class StreamBuffer: Sendable {
    private struct State {
        var head: HTTPResponse?
        var headWaiters: [UnsafeContinuation<Void, Never>] = []
        var chunks: [Data] = []
        var first = 0
        var buffered: Int64 = 0
        var spill: SpillFile?
        /// `nil` while the transfer runs; then `.some(nil)` for a complete body, `.some(error)` for a failed one.
        var end: FerryError??
        var consumer: UnsafeContinuation<Void, Never>?
        var producer: UnsafeContinuation<Void, Never>?
        var closed = false
        var claimed = false

        var hasChunk: Bool { first < chunks.count || (spill?.unread ?? 0) > 0 }
    }

    private let capacity: Int64
    private let overflow: StreamOptions.OverflowPolicy
    private let state = Mutex(State())

    init(options: StreamOptions) {
        capacity = Int64(options.bufferSize)
        overflow = options.overflow
    }

    deinit {
        state.withLock { $0.spill }?.remove()
    }

    // MARK: Producer

    /// Publishes the final response's head.
    func publish(_ head: HTTPResponse) {
        let waiters = state.withLock { state in
            state.head = head
            defer { state.headWaiters = [] }
            return state.headWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Adds a chunk; never waits.
    /// - Throws: ``FerryError/Reason/streamBufferOverflow(limit:)`` when the buffer is full under the failing
    ///   policy or the spill file reached its limit; ``FerryError/Reason/fileSystemFailed(_:)`` when spilling fails.
    func push(_ chunk: Data) throws(FerryError) {
        guard !chunk.isEmpty else { return }
        let count = Int64(chunk.count)
        let consumer: UnsafeContinuation<Void, Never>? = try state.withLock { state throws(FerryError) in
            guard !state.closed else { return nil }
            if state.spill != nil || (state.buffered > 0 && state.buffered + count > capacity) {
                guard case .spillToDisk(let maximum) = overflow else {
                    throw FerryError(.streamBufferOverflow(limit: capacity))
                }
                if state.spill == nil { state.spill = try SpillFile.create() }
                guard let unread = state.spill?.unread, unread + count <= maximum else {
                    throw FerryError(.streamBufferOverflow(limit: capacity + maximum))
                }
                try state.spill?.append(chunk)
            } else {
                state.chunks.append(chunk)
                state.buffered += count
            }
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume()
    }

    /// Waits, when `count` more bytes would overfill the buffer, until the consumer has drained it to half its
    /// capacity, or the stream ended.
    /// - Throws: ``FerryError/Reason/cancelled`` when the consumer went away.
    func waitForCapacity(adding count: Int) async throws(FerryError) {
        let count = Int64(count)
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let wait = state.withLock { state in
                    let full = state.buffered > 0 && state.buffered + count > capacity
                    guard !state.closed, state.end == nil, full, !Task.isCancelled else {
                        return false
                    }
                    state.producer = continuation
                    return true
                }
                if !wait { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.producer = nil }
                return state.producer
            }?.resume()
        }
        if state.withLock({ $0.closed }) { throw FerryError(.cancelled) }
    }

    /// Whether a producer is waiting for the consumer.
    var isProducerWaiting: Bool { state.withLock { $0.producer != nil } }

    /// Ends the stream: `nil` when the body is complete, else the error the consumer gets after the buffered bytes.
    func finish(_ error: FerryError?) {
        let (consumer, producer, headWaiters, spill) = state.withLock { state in
            if state.end == nil { state.end = .some(error) }
            defer {
                state.consumer = nil
                state.producer = nil
                state.headWaiters = []
                if state.closed { state.spill = nil }
            }
            return (state.consumer, state.producer, state.headWaiters, state.closed ? state.spill : nil)
        }
        consumer?.resume()
        producer?.resume()
        for waiter in headWaiters { waiter.resume() }
        spill?.remove()
    }

    // MARK: Consumer

    /// Claims the one consumer slot.
    /// - Returns: `false` when a consumer already claimed it.
    func claim() -> Bool {
        state.withLock { state in
            defer { state.claimed = true }
            return !state.claimed
        }
    }

    /// Waits for the final response head.
    /// - Returns: The head, or the error that ended the transfer before one arrived.
    func head() async -> Result<HTTPResponse, FerryError> {
        while true {
            let ready: Result<HTTPResponse, FerryError>? = state.withLock { state in
                if let head = state.head { return .success(head) }
                if let end = state.end { return .failure(end ?? FerryError(.transport(.invalidResponse))) }
                return nil
            }
            if let ready { return ready }
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    guard state.head == nil, state.end == nil else { return true }
                    state.headWaiters.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    /// The next chunk, in order; `nil` at the end of a complete body.
    /// - Throws: The error that ended the transfer, once every chunk before it was read.
    func next() async throws(FerryError) -> Data? {
        while true {
            switch try takeStep() {
            case .chunk(let chunk):
                return chunk
            case .spill(let reader, let offset, let count):
                return try readSpill(reader, offset: offset, count: count)
            case .end:
                return nil
            case .wait:
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                    let ready = state.withLock { state in
                        guard !state.hasChunk, state.end == nil, !state.closed else { return true }
                        state.consumer = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        }
    }

    private enum Step {
        case chunk(Data)
        case spill(FileHandle, offset: Int64, count: Int)
        case end
        case wait
    }

    private func takeStep() throws(FerryError) -> Step {
        let capacity = self.capacity
        let (step, producer): (Result<Step, FerryError>, UnsafeContinuation<Void, Never>?) = state.withLock { state in
            if state.first < state.chunks.count {
                let chunk = state.chunks[state.first]
                state.first += 1
                state.buffered -= Int64(chunk.count)
                if state.first == state.chunks.count {
                    state.chunks.removeAll(keepingCapacity: true)
                    state.first = 0
                } else if state.first >= 64 && state.first * 2 >= state.chunks.count {
                    state.chunks.removeFirst(state.first)
                    state.first = 0
                }
                var producer: UnsafeContinuation<Void, Never>?
                if state.buffered <= capacity / 2 {
                    producer = state.producer
                    state.producer = nil
                }
                return (.success(.chunk(chunk)), producer)
            }
            if let spill = state.spill, spill.unread > 0 {
                return (.success(.spill(spill.reader, offset: spill.read, count: Int(min(spill.unread, 256 << 10)))), nil)
            }
            if state.closed { return (.failure(FerryError(.cancelled)), nil) }
            switch state.end {
            case .some(nil): return (.success(.end), nil)
            case .some(let error?): return (.failure(error), nil)
            case nil: return (.success(.wait), nil)
            }
        }
        producer?.resume()
        return try step.get()
    }

    private func readSpill(_ reader: FileHandle, offset: Int64, count: Int) throws(FerryError) -> Data {
        let data: Data
        do {
            try reader.seek(toOffset: UInt64(offset))
            data = try reader.read(upToCount: count) ?? Data()
        } catch {
            throw FerryError(.fileSystemFailed("cannot read the stream spill file"), underlyingError: error)
        }
        guard !data.isEmpty else {
            throw FerryError(.fileSystemFailed("the stream spill file ended early"))
        }
        let drained: SpillFile? = state.withLock { state in
            state.spill?.read += Int64(data.count)
            guard let spill = state.spill, spill.unread == 0 else { return nil }
            state.spill = nil
            return spill
        }
        drained?.remove()
        return data
    }

    /// The consumer went away: drops what is buffered, deletes the spill file, releases a waiting producer.
    func close() {
        let (producer, spill) = state.withLock { state in
            state.closed = true
            state.chunks = []
            state.first = 0
            state.buffered = 0
            defer {
                state.spill = nil
                state.producer = nil
            }
            return (state.producer, state.spill)
        }
        producer?.resume()
        spill?.remove()
    }
}
