import Foundation

/// A file read in chunks as an `AsyncSequence`, for transports that stream a ``RequestBody/Content/file(_:)`` body.
struct FileChunks: Sendable {
    /// The file's size, measured when the body is prepared.
    let size: Int64
    let sequence: Sequence

    /// Measures the file.
    /// - Throws: ``FerryError/Reason/fileSystemFailed(_:)`` when it cannot be read.
    init(url: URL, chunkSize: Int = 256 << 10) throws(FerryError) {
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        } catch {
            throw FerryError(.fileSystemFailed("cannot read the upload file \(url.path)"), underlyingError: error)
        }
        sequence = Sequence(url: url, size: size, chunkSize: chunkSize)
    }

    struct Sequence: AsyncSequence, Sendable {
        typealias Element = Data

        let url: URL
        let size: Int64
        let chunkSize: Int

        func makeAsyncIterator() -> Iterator { Iterator(sequence: self) }

        struct Iterator: AsyncIteratorProtocol {
            let sequence: Sequence
            var handle: FileHandle?
            var sent: Int64 = 0

            init(sequence: Sequence) { self.sequence = sequence }

            /// The next chunk; the file must still have the size it had when the request was prepared.
            mutating func next() async throws -> Data? {
                guard sent < sequence.size else {
                    try? handle?.close()
                    handle = nil
                    return nil
                }
                do {
                    if handle == nil { handle = try FileHandle(forReadingFrom: sequence.url) }
                    let count = Int(Swift.min(Int64(sequence.chunkSize), sequence.size - sent))
                    guard let chunk = try handle?.read(upToCount: count), !chunk.isEmpty else {
                        throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: sequence.url.path])
                    }
                    sent += Int64(chunk.count)
                    return chunk
                } catch {
                    try? handle?.close()
                    handle = nil
                    throw FerryError(
                        .fileSystemFailed("the upload file \(sequence.url.path) changed while it was sent"),
                        underlyingError: error)
                }
            }
        }
    }
}
