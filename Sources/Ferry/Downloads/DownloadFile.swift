import Foundation
import Synchronization

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
    }

    /// The temporary file.
    let url: URL
    /// The bytes already on disk from an earlier attempt, when resuming.
    let resumeOffset: Int64
    private let state = Mutex(State())

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
                    underlyingError: ResumeMismatch(expectedStart: resumeOffset, contentRange: head.headers["Content-Range"]))
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
                try state.handle?.write(contentsOf: chunk)
                state.written += Int64(chunk.count)
            }
        } catch {
            throw FerryError(.fileSystemFailed("cannot write the download file \(url.path)"), underlyingError: error)
        }
    }

    /// Closes the file.
    /// - Returns: The bytes in the file.
    @discardableResult
    func close() -> Int64 {
        let (handle, written) = state.withLock { state in
            defer { state.handle = nil }
            return (state.handle, state.written)
        }
        try? handle?.close()
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
