import Foundation

/// A stored response's body: bytes in memory, or a file a store wrote, read only when the response answers.
///
/// A file body says how many bytes it holds; reading it checks that (and, for ``DiskCacheStorage``'s files, a
/// checksum), so a file that was truncated, replaced or removed since it was stored is a miss, never a wrong answer.
public struct CachedBody: Sendable, Hashable {
    enum Storage: Sendable, Hashable {
        case data(Data)
        /// A file by path (a `URL` built per hit cost more than reading the file: `cached-sequential`, disk).
        case file(path: String, byteCount: Int, checksum: UInt64?)
    }

    let storage: Storage

    /// A body held in memory.
    /// - Parameter data: The decoded bytes.
    /// - Returns: The body.
    public static func data(_ data: Data) -> CachedBody {
        CachedBody(storage: .data(data))
    }

    /// A body in a file, read when the response answers.
    /// - Parameters:
    ///   - url: The file's URL; it must not change while the response is stored.
    ///   - byteCount: The body's length: a file of another length reads as a miss.
    /// - Returns: The body.
    public static func file(_ url: URL, byteCount: Int) -> CachedBody {
        CachedBody(storage: .file(path: url.path, byteCount: byteCount, checksum: nil))
    }

    /// The body's length in bytes.
    public var byteCount: Int {
        switch storage {
        case .data(let data): data.count
        case .file(_, let byteCount, _): byteCount
        }
    }

    /// The bytes it keeps in memory (none for a file).
    var bytesInMemory: Int {
        if case .data(let data) = storage { return data.count }
        return 0
    }

    /// The body as a response body read in chunks (a download's): a file is checked first (its length, and its
    /// checksum when it has one, in a pass of its own), then read as the reader asks.
    /// - Returns: The body, or `nil` when the file is missing, has another length or fails its checksum.
    func responseBody() -> ResponseBody? {
        switch storage {
        case .data(let data):
            return .chunks([data])
        case .file(let path, let byteCount, let checksum):
            if let checksum, CacheFile.checksum(of: path, expectedCount: byteCount) != checksum { return nil }
            guard let reader = ChunkReader(path: path, expectedCount: byteCount) else { return nil }
            return byteCount == 0 ? .empty : ResponseBody(CachedFileSource(reader))
        }
    }

    /// The whole body, read from its file in chunks when it has one.
    /// - Returns: The bytes, or `nil` when the file is missing, has another length or fails its checksum.
    func load() -> Data? {
        switch storage {
        case .data(let data):
            return data
        case .file(let path, let byteCount, let checksum):
            guard let data = CacheFile.contents(of: path, expectedCount: byteCount) else { return nil }
            if let checksum, CacheChecksum.of(data) != checksum { return nil }
            return data
        }
    }
}

/// A stored body's file as a response body: read in chunks as the reader asks, so a download served from the cache
/// never holds the file in memory.
final class CachedFileSource: ResponseBodySource {
    private let reader: Locked<ChunkReader>

    init(_ reader: consuming sending ChunkReader) {
        self.reader = Locked(reader)
    }

    func next() async throws -> Data? {
        try Task.checkCancellation()
        switch reader.withLock({ $0.next() }) {
        case nil: return nil
        case .some(let chunk?): return chunk
        case .some(nil): throw FerryError(.fileSystemFailed("the cached body's file ended early"))
        }
    }

    func cancel() {
        reader.withLock { $0.finish() }
    }
}
