#if AsyncHTTPClient
import Foundation
import NIOCore

/// A stream request body, read by a task of Ferry's and handed to AsyncHTTPClient one chunk at a time, as the engine
/// asks for it.
///
/// The engine's async API reads a body sequence in a task of its own that nothing cancels: a source that never
/// produced its next chunk kept that task, and the source, waiting after the request had ended. Here the engine waits
/// on the pump instead, and ``stop()`` (the request ended) cancels the task that reads the source (whose iteration then
/// ends as a cancelled one does) and ends the engine's wait with an error.
///
/// The task is started by the engine's first request for a chunk; it reads one chunk ahead of no request.
final class StreamBodyPump: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    private typealias Demand = UnsafeContinuation<ByteBuffer?, any Error>

    private struct State {
        var reader: Task<Void, Never>?
        /// The engine waiting for the next chunk.
        var demand: Demand?
        /// The reader waiting for the engine to ask (`true`) or for the end (`false`).
        var idleReader: UnsafeContinuation<Bool, Never>?
        var stopped = false
    }

    private let source: ByteSource
    private let counter: UploadCounter
    private let state = Locked(State())

    init(_ source: ByteSource, counter: UploadCounter) {
        self.source = source
        self.counter = counter
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

    /// The next chunk, for the engine.
    private func next() async throws -> ByteBuffer? {
        try await withUnsafeThrowingContinuation { (demand: Demand) in
            let (stopped, start, idleReader) = state.withLock { state in
                guard !state.stopped else { return (true, false, UnsafeContinuation<Bool, Never>?.none) }
                state.demand = demand
                defer { state.idleReader = nil }
                return (false, state.reader == nil, state.idleReader)
            }
            if stopped { return demand.resume(throwing: FerryError(.cancelled)) }
            idleReader?.resume(returning: true)
            if start { startReader() }
        }
    }

    private func startReader() {
        let reader = Task { [self] in
            var chunks = source.chunks.makeAsyncIterator()
            repeat {
                let result: Result<ByteBuffer?, any Error>
                do {
                    result = .success(try await chunks.next().map { ByteBuffer(bytes: $0) })
                } catch {
                    result = .failure(error)
                }
                if case .success(let buffer?) = result { counter.add(buffer.readableBytes) }
                guard let demand = state.withLock({ $0.demand.take() }) else { return }
                demand.resume(with: result)
                guard case .success(_?) = result else { return }
            } while await askedAgain()
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

    /// Waits until the engine asks for another chunk; `false` once the request ended.
    private func askedAgain() async -> Bool {
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
