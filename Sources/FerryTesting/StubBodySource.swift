import Ferry
import Foundation

/// A stub's body with pauses between chunks or a failure at the end; the pauses are stoppable, so a timeout or a
/// cancellation ends them.
final class StubBodySource: ResponseBodySource {
    private let chunks: [Data]
    private let interval: Duration
    private let failure: StubFailure?
    private let context: TransportContext
    private let next = Locked(0)

    init(_ stub: StubResponse, context: TransportContext) {
        chunks = stub.chunks
        interval = stub.chunkInterval
        failure = stub.failure
        self.context = context
    }

    func next() async throws -> Data? {
        let index = next.withLock { index in
            defer { index += 1 }
            return index
        }
        guard index < chunks.count else {
            if let failure { throw failure.error }
            return nil
        }
        if index > 0, interval > .zero {
            try await context.stoppable { [interval] in try await Task.sleep(for: interval) }
        }
        return chunks[index]
    }

    func cancel() {
        next.withLock { $0 = Int.max / 2 }
    }
}
