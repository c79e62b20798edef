import Foundation

/// A body whose chunks are already in memory (``ResponseBody/chunks(_:)``).
final class ChunkListSource: ResponseBodySource {
    private let state: Locked<(chunks: [Data], next: Int)>

    init(_ chunks: [Data]) {
        state = Locked((chunks, 0))
    }

    func next() async throws -> Data? {
        try Task.checkCancellation()
        return state.withLock { state in
            guard state.next < state.chunks.count else { return nil }
            defer { state.next += 1 }
            return state.chunks[state.next]
        }
    }

    func cancel() {
        state.withLock { $0 = ([], 0) }
    }
}
