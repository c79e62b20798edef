import Foundation

extension MultipartFormData {
    /// The exact size of the encoded body in bytes, computed from file sizes without reading the files.
    ///
    /// `nil` when a file's size can't be read or the form can't be encoded (an invalid boundary or media type).
    public var contentLength: Int64? {
        try? MultipartLayout(self).length
    }

    /// Encodes the form, in memory when it is small and into a temporary file when it is large.
    /// - Parameter memoryThreshold: The largest body, in bytes, kept in memory; 10 MiB by default.
    /// - Returns: ``EncodedMultipart/data(_:)`` when ``contentLength`` is at most `memoryThreshold`, otherwise
    ///   ``EncodedMultipart/file(_:length:)`` with a new file `ferry-multipart-<UUID>.tmp` in the temporary
    ///   directory, which the caller owns and must delete. Files are copied in 256 KiB chunks, so memory stays
    ///   bounded whatever their sizes.
    /// - Throws: ``FerryError`` with ``FerryError/Reason/invalidRequest(_:)`` when the boundary or a media type is
    ///   invalid, a file is missing or unreadable or changes size while it is read, or the temporary file can't be
    ///   written. No temporary file is left behind.
    public func encoded(memoryThreshold: Int64 = 10 * 1024 * 1024) throws(FerryError) -> EncodedMultipart {
        try encoded(memoryThreshold: memoryThreshold, temporaryDirectory: FileManager.default.temporaryDirectory)
    }

    /// Writes the encoded form to a file, streaming file parts in 256 KiB chunks.
    /// - Parameter url: Where to write; an existing file there is replaced.
    /// - Throws: ``FerryError`` with ``FerryError/Reason/invalidRequest(_:)`` when the boundary or a media type is
    ///   invalid, a file part is missing or unreadable or changes size while it is read, or `url` can't be written.
    ///   A partly written file is removed.
    public func writeEncoded(to url: URL) throws(FerryError) {
        try MultipartLayout(self).write(toFileAt: url)
    }

    /// ``encoded(memoryThreshold:)`` with the directory for large bodies given.
    func encoded(memoryThreshold: Int64, temporaryDirectory: URL) throws(FerryError) -> EncodedMultipart {
        let layout = try MultipartLayout(self)
        if layout.length <= memoryThreshold {
            return .data(try layout.encodedData())
        }
        let url = temporaryDirectory.appendingPathComponent("ferry-multipart-\(UUID().uuidString).tmp")
        try layout.write(toFileAt: url, permissions: 0o600)
        return .file(url, length: layout.length)
    }
}

extension MultipartLayout {
    /// The whole body in memory, in a buffer allocated once.
    func encodedData() throws(FerryError) -> Data {
        var sink = MultipartDataSink(capacity: Int(clamping: length))
        try write(into: &sink)
        return sink.data
    }

    /// Writes the body to a new or emptied file at `url`, removing it again if writing fails.
    func write(toFileAt url: URL, permissions: Int? = nil) throws(FerryError) {
        let attributes: [FileAttributeKey: Any]? = permissions.map { [.posixPermissions: $0] }
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: attributes) else {
            throw .multipartBodyUnwritable(url, nil)
        }
        do throws(FerryError) {
            let handle: FileHandle
            do {
                handle = try FileHandle(forWritingTo: url)
            } catch {
                throw .multipartBodyUnwritable(url, error)
            }
            var sink = MultipartFileSink(handle: handle, url: url)
            do throws(FerryError) {
                try write(into: &sink)
            } catch {
                try? handle.close()
                throw error
            }
            do {
                try handle.close()
            } catch {
                throw .multipartBodyUnwritable(url, error)
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }
}
