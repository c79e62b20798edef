#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore

/// A file or stream request body on the engine's delegate API. The engine asks for the body on an event loop, which
/// cannot wait for an asynchronous sequence, so a task of the pump's own reads the chunks and writes each to the
/// engine's `StreamWriter`, waiting for each write (the engine's back-pressure). The exchange stops the pump when the
/// request ends, so a source that never ends cannot keep the task alive.
///
/// This is the one task of Ferry's on the engine's path, and only for a body that is not in memory.
final class RequestBodyPump: Sendable {
    private enum State {
        case idle
        case running(Task<Void, Never>)
        case stopped
    }

    private let state = Locked(State.idle)

    /// The engine's body: `chunks` written in order, with `length` announced when known (else chunked).
    /// - Parameter group: The engine's loops: the future handed to it is on the one that asks (it hops to its own).
    func body<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, length: Int64?, group: any EventLoopGroup
    ) -> HTTPClient.Body where Chunks.Element == ByteBuffer {
        .stream(contentLength: length) { [self] writer in
            let promise = group.any().makePromise(of: Void.self)
            run(
                Task {
                    do {
                        for try await buffer in chunks {
                            try Task.checkCancellation()
                            try await writer.write(.byteBuffer(buffer)).get()
                        }
                        promise.succeed()
                    } catch {
                        promise.fail(error)
                    }
                })
            return promise.futureResult
        }
    }

    private func run(_ task: Task<Void, Never>) {
        let stopped = state.withLock { state in
            if case .stopped = state { return true }
            state = .running(task)
            return false
        }
        if stopped { task.cancel() }
    }

    /// The request ended: a body still being read stops.
    func stop() {
        let running = state.withLock { state -> Task<Void, Never>? in
            defer { state = .stopped }
            if case .running(let task) = state { return task }
            return nil
        }
        running?.cancel()
    }
}

/// `Data` chunks as the engine's buffers.
struct ByteBufferChunks<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == Data {
    typealias Element = ByteBuffer

    let base: Base

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator

        mutating func next() async throws -> ByteBuffer? {
            try await base.next().map { ByteBuffer(bytes: $0) }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator())
    }
}
#endif
