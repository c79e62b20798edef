import Foundation

/// Where the bytes of an encoded multipart form go.
protocol MultipartSink {
    /// Appends `bytes`.
    mutating func write(_ bytes: Data) throws(FerryError)
}

/// Collects a body in memory.
struct MultipartDataSink: MultipartSink {
    var data = Data()

    init(capacity: Int) {
        data.reserveCapacity(capacity)
    }

    mutating func write(_ bytes: Data) {
        data.append(bytes)
    }
}

/// Writes a body to an open file.
struct MultipartFileSink: MultipartSink {
    let handle: FileHandle
    let url: URL

    func write(_ bytes: Data) throws(FerryError) {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw .multipartBodyUnwritable(url, error)
        }
    }
}

extension MultipartSink {
    /// How many bytes of a file are read at a time.
    static var chunkSize: Int { 256 * 1024 }

    /// Copies the file at `url` in chunks, checking that it holds exactly `expectedSize` bytes and not the form's
    /// boundary.
    /// - Throws: ``FerryError`` with ``FerryError/Reason/invalidRequest(_:)`` when the file can't be read, its
    ///   size is not `expectedSize` or it holds the boundary, or when writing fails.
    mutating func copyFile(
        at url: URL, expectedSize: Int64, scanning scanner: inout MultipartBoundaryScanner
    ) throws(FerryError) {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw .multipartFile(url, "could not be opened", underlyingError: error)
        }
        defer { try? handle.close() }
        var copied: Int64 = 0
        while true {
            let step = withAutoreleasePool { () -> Result<Bool, FerryError> in
                let chunk: Data
                do {
                    chunk = try handle.read(upToCount: Self.chunkSize) ?? Data()
                } catch {
                    return .failure(.multipartFile(url, "could not be read", underlyingError: error))
                }
                guard !chunk.isEmpty else { return .success(false) }
                copied += Int64(chunk.count)
                guard copied <= expectedSize else { return .failure(.multipartFileChangedSize(url, expectedSize)) }
                do throws(FerryError) {
                    try scanner.scan(chunk)
                    try write(chunk)
                } catch {
                    return .failure(error)
                }
                return .success(true)
            }
            guard try step.get() else { break }
        }
        guard copied == expectedSize else { throw .multipartFileChangedSize(url, expectedSize) }
    }
}

/// Runs `body` in an autorelease pool where there is one, so chunks read from files are freed as the loop goes.
private func withAutoreleasePool<Value>(_ body: () -> Value) -> Value {
    #if canImport(ObjectiveC)
    autoreleasepool(invoking: body)
    #else
    body()
    #endif
}
