import Foundation

extension RequestBody {
    /// The contents of a file, read while they are sent, never loaded whole.
    /// - Parameters:
    ///   - url: A file URL.
    ///   - contentType: The media type; `application/octet-stream` by default.
    /// - Returns: The body. A file that cannot be read fails the request with ``FerryError/Reason/fileSystemFailed(_:)``.
    public static func file(_ url: URL, contentType: String? = "application/octet-stream") -> RequestBody {
        guard url.isFileURL, FileManager.default.isReadableFile(atPath: url.path) else {
            return RequestBody(
                .failure(FerryError(.fileSystemFailed("cannot read the upload file \(url.path)"))),
                contentType: contentType)
        }
        return RequestBody(.content(.file(url)), contentType: contentType)
    }

    /// Chunks from an asynchronous sequence, sent as they come.
    ///
    /// Transports that stream request bodies (``Transport/streamsRequestBodies``) send the chunks as they arrive,
    /// chunked when `count` is `nil`. URLSession cannot (on Linux its body streams end at the first moment no bytes
    /// are ready), so for it Ferry first spools the sequence to a temporary file, in constant memory, and sends that
    /// with a `Content-Length`. The sequence is read once: a 307/308 redirect resends the spooled copy.
    /// - Parameters:
    ///   - sequence: The chunks.
    ///   - count: The total, when known.
    ///   - contentType: The media type; `application/octet-stream` by default.
    /// - Returns: The body.
    public static func stream<Chunks: AsyncSequence & Sendable>(
        _ sequence: Chunks, count: Int64? = nil, contentType: String? = "application/octet-stream"
    ) -> RequestBody where Chunks.Element == Data {
        RequestBody(.content(.stream(ByteSource(sequence), count: count)), contentType: contentType)
    }
}

/// A sequence of byte chunks a ``RequestBody`` reads once.
public struct ByteSource: Sendable {
    /// The chunks, for a transport that streams request bodies.
    public let chunks: Chunks

    init<Source: AsyncSequence & Sendable>(_ sequence: Source) where Source.Element == Data {
        chunks = Chunks {
            var iterator = sequence.makeAsyncIterator()
            return Chunks.Iterator { try await iterator.next() }
        }
    }

    /// Reads every chunk in order.
    /// - Parameter body: Gets each chunk.
    /// - Throws: What the sequence or `body` throws.
    public func forEach(_ body: (Data) async throws -> Void) async throws {
        for try await chunk in chunks { try await body(chunk) }
    }

    /// The chunks as a type-erased `AsyncSequence`.
    public struct Chunks: AsyncSequence, Sendable {
        /// A chunk.
        public typealias Element = Data

        fileprivate let make: @Sendable () -> Iterator

        /// Starts reading.
        /// - Returns: The iterator.
        public func makeAsyncIterator() -> Iterator { make() }

        /// Reads the chunks in order.
        public struct Iterator: AsyncIteratorProtocol {
            fileprivate let pull: () async throws -> Data?

            /// The next chunk, or `nil` at the end.
            /// - Throws: What the underlying sequence throws.
            public mutating func next() async throws -> Data? { try await pull() }
        }
    }
}

/// A temporary file that is deleted when the last reference goes away.
final class TemporaryFile: Sendable {
    let url: URL

    init(_ url: URL) {
        self.url = url
    }

    /// A new, empty file in the temporary directory.
    static func create(prefix: String) throws(FerryError) -> TemporaryFile {
        let url = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw FerryError(
                .fileSystemFailed("cannot create a temporary file in \(url.deletingLastPathComponent().path)"))
        }
        return TemporaryFile(url)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

extension RequestBody {
    /// This body with its stream written to a temporary file, in constant memory.
    func spooled(_ source: ByteSource) async throws -> RequestBody {
        let file = try TemporaryFile.create(prefix: "ferry-upload")
        do {
            let handle = try FileHandle(forWritingTo: file.url)
            defer { try? handle.close() }
            try await source.forEach { chunk in
                try Task.checkCancellation()
                try handle.write(contentsOf: chunk)
            }
        } catch let error as FerryError {
            throw error
        } catch is CancellationError {
            throw FerryError(.cancelled)
        } catch {
            throw FerryError(.invalidRequest("the upload stream failed"), underlyingError: error)
        }
        return RequestBody(.content(.file(file.url)), contentType: contentType, temporaryFile: file)
    }
}
