#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore

/// An AsyncHTTPClient response body, pulled by the pipeline. Its waits run through
/// ``TransportContext/stoppable(_:)`` (AsyncHTTPClient stops only on task cancellation), a batch of chunks at a
/// time when the whole body is read, so that a stop is paid for once per batch, not per chunk.
///
/// `@unchecked Sendable`: it holds the engine's iterator, which is not `Sendable`; the pipeline reads a body from
/// one task at a time (the ``ResponseBodySource`` contract), and every read goes through `reading`, in order.
final class AsyncHTTPClientBody: ResponseBodySource, @unchecked Sendable {
    /// How many bytes one batch of ``forEach(_:)`` gathers before handing them on.
    static let batchSize = 1 << 20

    private let body: HTTPClientResponse.Body
    private let context: TransportContext
    private var iterator: HTTPClientResponse.Body.AsyncIterator?
    private var ended = false

    init(_ body: HTTPClientResponse.Body, context: TransportContext) {
        self.body = body
        self.context = context
    }

    func next() async throws -> Data? {
        try await read(upTo: 1).first
    }

    func forEach(_ consume: (Data) throws -> Void) async throws {
        while true {
            let batch = try await read(upTo: Self.batchSize)
            if batch.isEmpty { return }
            for chunk in batch { try consume(chunk) }
        }
    }

    func cancel() {
        // Dropping the iterator (with the body) ends the request in AsyncHTTPClient.
    }

    /// Reads chunks until `limit` bytes or the end; empty at the end.
    private func read(upTo limit: Int) async throws -> [Data] {
        guard !ended else { return [] }
        do {
            let (chunks, ended) = try await context.stoppable { [self] in try await self.gather(upTo: limit) }
            self.ended = ended
            return chunks
        } catch {
            ended = true
            throw FerryError.mappingAsyncHTTPClient(error)
        }
    }

    private func gather(upTo limit: Int) async throws -> ([Data], ended: Bool) {
        var iterator = self.iterator ?? body.makeAsyncIterator()
        defer { self.iterator = iterator }
        var chunks: [Data] = []
        var count = 0
        while count < limit {
            guard let buffer = try await iterator.next() else { return (chunks, true) }
            chunks.append(Data(buffer.readableBytesView))
            count += buffer.readableBytes
            context.noteActivity()
        }
        return (chunks, false)
    }
}
#endif
