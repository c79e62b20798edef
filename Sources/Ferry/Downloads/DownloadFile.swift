import Foundation

/// The file a download writes while it runs: a temporary file Ferry owns, moved to the destination only when the
/// download succeeds.
///
/// Written from the transport's callbacks, so its state lives under a lock. A resumed download opens the partial
/// file of an earlier attempt and appends when the server answers the range request with 206 and a
/// `Content-Range` that starts where the file ends; any other 2xx answer rewrites the file from the start.
final class DownloadFile: Sendable {
    private struct State {
        var handle: FileHandle?
        var written: Int64 = 0
        /// Chunks not yet written: the transport's 16 KiB chunks are written 1 MiB at a time, so that the
        /// callback keeps up with loopback speeds (FoundationNetworking queues whatever the delegate has not taken
        /// yet in memory).
        var pending = Data()
    }

    /// How many bytes are gathered before a write.
    static let writeSize = 1 << 20

    /// The temporary file.
    let url: URL
    /// The bytes already on disk from an earlier attempt, when resuming.
    let resumeOffset: Int64
    private let state = Locked(State())

    init(url: URL, resumeOffset: Int64 = 0) {
        self.url = url
        self.resumeOffset = resumeOffset
    }

    /// Prepares the file for the final response's body.
    /// - Parameter head: The final response's head (2xx).
    /// - Returns: The bytes kept from an earlier attempt: the offset the body continues from.
    /// - Throws: ``FerryError`` when the file cannot be opened, or a 206 does not continue the partial file.
    func begin(_ head: HTTPResponse) throws(FerryError) -> Int64 {
        let offset: Int64
        if head.statusCode == 206, resumeOffset > 0 {
            guard let start = Self.rangeStart(head.headers["Content-Range"]), start == resumeOffset else {
                throw FerryError(
                    .transport(.invalidResponse), response: head,
                    underlyingError: ResumeMismatch(
                        expectedStart: resumeOffset, contentRange: head.headers["Content-Range"]))
            }
            offset = resumeOffset
        } else {
            offset = 0
        }
        do {
            let handle: FileHandle
            if offset > 0 {
                handle = try FileHandle(forWritingTo: url)
                try handle.truncate(atOffset: UInt64(offset))
                try handle.seekToEnd()
            } else {
                guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
                }
                handle = try FileHandle(forWritingTo: url)
            }
            let previous = state.withLock { state in
                defer {
                    state.handle = handle
                    state.written = offset
                    state.pending = Data()
                }
                return state.handle
            }
            try? previous?.close()
        } catch {
            throw FerryError(.fileSystemFailed("cannot open the download file \(url.path)"), underlyingError: error)
        }
        return offset
    }

    /// Appends a chunk of the body.
    /// - Parameter chunk: The bytes.
    /// - Throws: ``FerryError`` with ``FerryError/Reason/fileSystemFailed(_:)`` when the write fails (disk full, …).
    func write(_ chunk: Data) throws(FerryError) {
        do {
            try state.withLock { state in
                if state.pending.isEmpty { state.pending.reserveCapacity(Self.writeSize) }
                state.pending.append(chunk)
                state.written += Int64(chunk.count)
                if state.pending.count >= Self.writeSize { try Self.flush(&state) }
            }
        } catch {
            throw FerryError(.fileSystemFailed("cannot write the download file \(url.path)"), underlyingError: error)
        }
    }

    private static func flush(_ state: inout State) throws {
        guard !state.pending.isEmpty, let handle = state.handle else { return }
        try handle.write(contentsOf: state.pending)
        state.pending.removeAll(keepingCapacity: true)
    }

    /// Writes what is pending and closes the file.
    /// - Returns: The bytes in the file.
    /// - Throws: ``FerryError`` with ``FerryError/Reason/fileSystemFailed(_:)`` when the last write fails.
    @discardableResult
    func close() throws(FerryError) -> Int64 {
        let (handle, written, failure): (FileHandle?, Int64, (any Error)?) = state.withLock { state in
            var failure: (any Error)?
            do { try Self.flush(&state) } catch { failure = error }
            defer {
                state.handle = nil
                state.pending = Data()
            }
            return (state.handle, state.written, failure)
        }
        try? handle?.close()
        if let failure {
            throw FerryError(.fileSystemFailed("cannot write the download file \(url.path)"), underlyingError: failure)
        }
        return written
    }

    /// The first byte position of a `Content-Range: bytes a-b/total` value.
    static func rangeStart(_ value: String?) -> Int64? {
        guard let value, value.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst("bytes ".count)
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        return Int64(spec[..<dash].trimmingCharacters(in: .whitespaces))
    }
}

/// A `206 Partial Content` answer whose `Content-Range` does not start where the partial file ends.
public struct ResumeMismatch: Error, Sendable, Hashable {
    /// Where the partial file ends.
    public var expectedStart: Int64
    /// The server's `Content-Range`, if any.
    public var contentRange: String?
}
