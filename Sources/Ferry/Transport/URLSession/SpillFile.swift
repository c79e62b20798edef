import Foundation

/// The temporary file a stream buffer writes the bytes its consumer is behind on.
///
/// The buffer's one producer appends through one descriptor while its one consumer reads at its own offsets through
/// another; the buffer's state machine keeps the counts and decides when to remove the file, so this type only does
/// the I/O, outside the buffer's lock.
struct SpillFile: Sendable {
    /// Where the file is.
    let url: URL
    /// Appends at the end; used by the producer only.
    private let writer: FileHandle
    /// Reads at an offset; used by the consumer only.
    private let reader: FileHandle

    /// Creates an empty spill file.
    /// - Parameter directory: The directory to create it in.
    /// - Returns: The file, open for appending and reading.
    /// - Throws: ``FerryError/Reason/fileSystemFailed(_:)`` when it cannot be created.
    static func create(in directory: URL) throws(FerryError) -> SpillFile {
        let url = directory.appending(path: "ferry-stream-\(UUID().uuidString).spill")
        do {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
            let writer = try FileHandle(forWritingTo: url)
            let reader = try FileHandle(forReadingFrom: url)
            return SpillFile(url: url, writer: writer, reader: reader)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw FerryError(.fileSystemFailed("cannot create a stream spill file"), underlyingError: error)
        }
    }

    /// Appends a chunk at the end of the file.
    /// - Parameter chunk: The bytes.
    /// - Throws: ``FerryError/Reason/fileSystemFailed(_:)`` when writing fails.
    func append(_ chunk: Data) throws(FerryError) {
        do {
            try writer.write(contentsOf: chunk)
        } catch {
            throw FerryError(.fileSystemFailed("cannot write the stream spill file"), underlyingError: error)
        }
    }

    /// Reads bytes written earlier.
    /// - Parameters:
    ///   - offset: Where to start.
    ///   - count: The most bytes to read.
    /// - Returns: At least one byte.
    /// - Throws: ``FerryError/Reason/fileSystemFailed(_:)`` when reading fails or the file ends before `offset`.
    func read(at offset: Int64, count: Int) throws(FerryError) -> Data {
        let data: Data
        do {
            try reader.seek(toOffset: UInt64(offset))
            data = try reader.read(upToCount: count) ?? Data()
        } catch {
            throw FerryError(.fileSystemFailed("cannot read the stream spill file"), underlyingError: error)
        }
        guard !data.isEmpty else { throw FerryError(.fileSystemFailed("the stream spill file ended early")) }
        return data
    }

    /// Closes both descriptors and deletes the file.
    func remove() {
        try? writer.close()
        try? reader.close()
        try? FileManager.default.removeItem(at: url)
    }
}
