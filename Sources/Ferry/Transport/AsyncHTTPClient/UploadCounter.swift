#if AsyncHTTPClient
import Foundation
import NIOCore

/// Counts request body bytes as AsyncHTTPClient pulls them, for upload progress and the metrics.
final class UploadCounter: Sendable {
    private let context: TransportContext
    private let expected: Int64?
    private let state = Locked(Int64(0))

    init(context: TransportContext, expected: Int64?) {
        self.context = context
        self.expected = expected
    }

    /// Adds bytes handed to the client.
    func add(_ count: Int) {
        let total = state.withLock { sent in
            sent += Int64(count)
            return sent
        }
        context.noteSent(totalBytesSent: total, expected: expected)
    }
}

/// A sequence of `Data` chunks handed to AsyncHTTPClient as `ByteBuffer`s, counted as they go.
struct CountedChunks<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == Data {
    typealias Element = ByteBuffer

    let base: Base
    let counter: UploadCounter

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let counter: UploadCounter

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            counter.add(chunk.count)
            return ByteBuffer(bytes: chunk)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), counter: counter)
    }
}
#endif
