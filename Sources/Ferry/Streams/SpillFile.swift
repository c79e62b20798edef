import Foundation

/// The temporary file a stream buffer spills to while its consumer is behind. The producer appends under the
/// buffer's lock; the single consumer reads at its own offset through a second descriptor.
struct SpillFile {
    let url: URL
    let writer: FileHandle
    let reader: FileHandle
    var written: Int64 = 0
    var read: Int64 = 0

    /// Creates an empty spill file in the temporary directory.
    static func create() throws(FerryError) -> SpillFile {
        let url = FileManager.default.temporaryDirectory.appending(path: "ferry-stream-\(UUID().uuidString).spill")
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

    var unread: Int64 { written - read }

    mutating func append(_ chunk: Data) throws(FerryError) {
        do {
            try writer.write(contentsOf: chunk)
        } catch {
            throw FerryError(.fileSystemFailed("cannot write the stream spill file"), underlyingError: error)
        }
        written += Int64(chunk.count)
    }

    /// Closes both descriptors and deletes the file.
    func remove() {
        try? writer.close()
        try? reader.close()
        try? FileManager.default.removeItem(at: url)
    }
}
