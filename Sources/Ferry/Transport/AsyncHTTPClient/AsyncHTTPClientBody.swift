#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore

/// An AsyncHTTPClient response body, pulled by the pipeline. Its waits run through
/// ``TransportContext/stoppable(_:)`` (AsyncHTTPClient stops only on task cancellation): once per chunk for a
/// stream's consumer, once for the whole body when the pipeline reads it all (``forEach(_:)``, which hands each
/// chunk on from the child task as it arrives).
///
/// `@unchecked Sendable`: it holds the engine's iterator, which is not `Sendable`; a body is read from one task at
/// a time (the ``ResponseBodySource`` contract), and every read goes through `stoppable`, which waits for its
/// child before returning.
final class AsyncHTTPClientBody: ResponseBodySource, @unchecked Sendable {
    private let body: HTTPClientResponse.Body
    private let context: TransportContext
    private let onEnd: (@Sendable () -> Void)?
    private var iterator: HTTPClientResponse.Body.AsyncIterator?

    /// - Parameter onEnd: Called when the body ended, failed or was cancelled (the request is over).
    init(_ body: HTTPClientResponse.Body, context: TransportContext, onEnd: (@Sendable () -> Void)? = nil) {
        self.body = body
        self.context = context
        self.onEnd = onEnd
    }

    deinit {
        // Every reader reads to the end or cancels; this is for one that would not.
        onEnd?()
    }

    func next() async throws -> Data? {
        do {
            let chunk = try await context.stoppable { [self] in try await self.nextChunk() }
            if chunk == nil { onEnd?() }
            return chunk
        } catch {
            onEnd?()
            throw FerryError.mappingAsyncHTTPClient(error)
        }
    }

    func forEach(_ consume: @escaping @Sendable (Data) throws -> Void) async throws {
        defer { onEnd?() }
        do {
            try await context.stoppable { [self] in
                while let chunk = try await self.nextChunk() { try consume(chunk) }
            }
        } catch {
            throw FerryError.mappingAsyncHTTPClient(error)
        }
    }

    func cancel() {
        // Dropping the iterator (with the body) ends the request in AsyncHTTPClient.
        onEnd?()
    }

    private func nextChunk() async throws -> Data? {
        var iterator = self.iterator ?? body.makeAsyncIterator()
        defer { self.iterator = iterator }
        guard let buffer = try await iterator.next() else { return nil }
        context.noteActivity()
        return Data(copying: buffer)
    }
}
#endif
