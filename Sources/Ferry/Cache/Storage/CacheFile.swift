import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations a cache store needs, in chunks and with plain system calls: a body is never read or
/// written in one piece larger than ``chunkSize``.
enum CacheFile {
    /// The most bytes one `read` or `write` call moves.
    static let chunkSize = 64 * 1024

    /// Reads the file at `path`, which must hold exactly `expectedCount` bytes when given.
    /// - Returns: The bytes, or `nil` when the file is missing, unreadable or of another length.
    static func contents(of path: String, expectedCount: Int? = nil) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let count = Int(info.st_size)
        if let expectedCount, count != expectedCount { return nil }
        var data = Data(count: count)
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            var offset = 0
            while offset < count {
                let got = read(fd, buffer.baseAddress! + offset, min(chunkSize, count - offset))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return false }
                offset += got
            }
            return true
        }
        return complete ? data : nil
    }

    /// Creates the file at `url` (which must not exist) holding `data`, written in chunks.
    /// - Parameter room: The bytes the disk takes before it is full, when a test plays a full disk; `nil` for the
    ///   real disk.
    /// - Throws: `POSIXError` when the file cannot be created or written (`ENOSPC` on a full disk). A partly written
    ///   file is left for the caller to remove.
    static func create(_ url: URL, holding data: Data, room: Int? = nil) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw lastError() }
        defer { close(fd) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                var length = min(chunkSize, buffer.count - offset)
                if let room {
                    guard room > offset else { throw POSIXError(.ENOSPC) }
                    length = min(length, room - offset)
                }
                let written = write(fd, buffer.baseAddress! + offset, length)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw lastError() }
                offset += written
            }
        }
    }

    /// Moves `source` to `destination` in one step, replacing what is there: a reader sees the old file or the
    /// new one, never part of either.
    static func move(_ source: URL, to destination: URL) throws {
        guard rename(source.path, destination.path) == 0 else { throw lastError() }
    }

    /// Removes the file at `url`, if there is one.
    static func remove(_ url: URL) {
        _ = unlink(url.path)
    }

    /// The names of the files in `directory` (none when it cannot be read).
    static func names(in directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    /// The file's size and modification time, or `nil` when it is missing.
    static func status(of url: URL) -> (size: Int, modified: TimeInterval)? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let modified = TimeInterval(info.st_mtimespec.tv_sec) + TimeInterval(info.st_mtimespec.tv_nsec) / 1e9
        #else
            let modified = TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9
        #endif
        return (Int(info.st_size), modified)
    }

    private static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}

/// FNV-1a, 64-bit: the checksum a disk store keeps for each record and body, so a corrupt file is a miss.
enum CacheChecksum {
    static func of(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            return hash
        }
    }

    static func of(_ string: String) -> UInt64 {
        of(Data(string.utf8))
    }
}
