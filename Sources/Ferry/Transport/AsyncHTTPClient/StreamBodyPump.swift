#if AsyncHTTPClient
import Foundation
import NIOCore

/// A stream request body, read by a task of Ferry's and handed to AsyncHTTPClient one chunk at a time, as the engine
/// asks for it.
///
/// The engine's async API reads a body sequence in a task of its own that nothing cancels: a source that never
/// produced its next chunk kept that task, and the source, waiting after the request had ended. Here the engine waits
/// on the pump instead, and ``stop()`` (the request ended) cancels the task that reads the source, whose iteration then
/// ends as a cancelled one does, and ends the engine's wait with an error. A source that ignores cancellation keeps
/// the pump's task until it produces or ends.
///
/// ``start()`` runs in the task that sends the request, so the source is read with its priority and task-local
/// values; the task reads a chunk only when the engine asks for one.
final class StreamBodyPump: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    private typealias Demand = UnsafeContinuation<ByteBuffer?, any Error>

    private struct State {
        var reader: Task<Void, Never>?
        /// The engine waiting for the next chunk.
        var demand: Demand?
        /// The reader waiting for the engine to ask (`true`) or for the request's end (`false`).
        var idleReader: UnsafeContinuation<Bool, Never>?
        /// The source's end (`nil`) or failure, for an engine that asks again.
        var finished: Result<ByteBuffer?, any Error>?
        var stopped = false
    }

    private let source: ByteSource
    private let counter: UploadCounter
    private let state = Locked(State())

    init(_ source: ByteSource, counter: UploadCounter) {
        self.source = source
        self.counter = counter
    }

    /// Starts the task that reads the source.
    func start() {
        let reader = Task { [self] in
            var chunks = source.chunks.makeAsyncIterator()
            while await asked() {
                let result: Result<ByteBuffer?, any Error>
                do {
                    result = .success(try await chunks.next().map { ByteBuffer(bytes: $0) })
                } catch {
                    result = .failure(error)
                }
                let demand = state.withLock { state -> Demand? in
                    if case .success(_?) = result {} else { state.finished = result }
                    return state.demand.take()
                }
                // Without a demand the request was stopped while the chunk was read: it is dropped.
                guard let demand else { return }
                if case .success(let buffer?) = result { counter.add(buffer.readableBytes) }
                demand.resume(with: result)
                guard case .success(_?) = result else { return }
            }
            // Stopped between two chunks: one last call in the cancelled task lets the source see its iteration
            // cancelled (an `AsyncStream` ends and calls its `onTermination`), as it does when stopped inside one.
            _ = try? await chunks.next()
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
            defer { (state.demand, state.idleReader) = (nil, nil) }
            return (state.reader, state.demand, state.idleReader)
        }
        reader?.cancel()
        demand?.resume(throwing: FerryError(.cancelled))
        idleReader?.resume(returning: false)
    }

    /// The next chunk, for the engine (which asks for one at a time).
    private func next() async throws -> ByteBuffer? {
        try await withUnsafeThrowingContinuation { (demand: Demand) in
            let (answer, idleReader) = state.withLock {
                state -> (Result<ByteBuffer?, any Error>?, UnsafeContinuation<Bool, Never>?) in
                if state.stopped || state.demand != nil { return (.failure(FerryError(.cancelled)), nil) }
                if let finished = state.finished { return (finished, nil) }
                state.demand = demand
                defer { state.idleReader = nil }
                return (nil, state.idleReader)
            }
            if let answer { demand.resume(with: answer) }
            idleReader?.resume(returning: true)
        }
    }

    /// Waits until the engine asks for a chunk; `false` once the request ended.
    private func asked() async -> Bool {
        await withUnsafeContinuation { continuation in
            let answer = state.withLock { state -> Bool? in
                if state.stopped { return false }
                if state.demand != nil { return true }
                state.idleReader = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
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
