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

    /// Copies the file at `source`, which must hold `expectedCount` bytes when given, to a new file at
    /// `destination`, in chunks.
    /// - Parameter room: As for ``create(_:holding:room:)``.
    /// - Returns: The bytes copied and their checksum.
    /// - Throws: `POSIXError` when either file fails, or `EIO` when the source has another length.
    static func copy(
        _ source: String, expectedCount: Int?, to destination: URL, room: Int? = nil
    ) throws
        -> (count: Int, checksum: UInt64)
    {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw lastError() }
        defer { close(input) }
        let output = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw lastError() }
        defer { close(output) }
        var checksum = CacheChecksum()
        var count = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let got = read(input, buffer.baseAddress!, chunkSize)
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw lastError() }
            if got == 0 { break }
            if let room, count + got > room { throw POSIXError(.ENOSPC) }
            checksum.update(UnsafeRawBufferPointer(rebasing: buffer[..<got]))
            var offset = 0
            while offset < got {
                let written = write(output, buffer.baseAddress! + offset, got - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw lastError() }
                offset += written
            }
            count += got
        }
        if let expectedCount, count != expectedCount { throw POSIXError(.EIO) }
        return (count, checksum.value)
    }

    /// The checksum of the file at `path`, read in chunks; `nil` when it is missing or not `expectedCount` bytes.
    static func checksum(of path: String, expectedCount: Int) -> UInt64? {
        guard let reader = ChunkReader(path: path, expectedCount: expectedCount) else { return nil }
        var checksum = CacheChecksum()
        while let chunk = reader.next() {
            guard let chunk else { return nil }
            checksum.update(chunk)
        }
        return reader.isComplete ? checksum.value : nil
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

    /// When the file was last written, or `nil` when it is missing.
    static func modificationTime(of url: URL) -> TimeInterval? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        return TimeInterval(info.st_mtimespec.tv_sec) + TimeInterval(info.st_mtimespec.tv_nsec) / 1e9
        #else
        return TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9
        #endif
    }

    private static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}

/// Reads a file of a known length in chunks, from an open descriptor that it closes at the end or when released.
final class ChunkReader {
    private let fd: Int32
    private var remaining: Int
    private var closed = false

    /// Opens the file at `path`; `nil` when it is missing or not `expectedCount` bytes.
    init?(path: String, expectedCount: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) == expectedCount else {
            close(fd)
            return nil
        }
        self.fd = fd
        remaining = expectedCount
    }

    deinit { finish() }

    /// Whether every byte was read.
    var isComplete: Bool { remaining == 0 }

    /// The next chunk: `.some(nil)` when the file ended early or failed, `nil` at the end.
    func next() -> Data?? {
        guard remaining > 0, !closed else {
            finish()
            return nil
        }
        var chunk = Data(count: min(CacheFile.chunkSize, remaining))
        let got = chunk.withUnsafeMutableBytes { buffer in
            var got: Int
            repeat { got = read(fd, buffer.baseAddress!, buffer.count) } while got < 0 && errno == EINTR
            return got
        }
        guard got > 0 else {
            finish()
            return .some(nil)
        }
        remaining -= got
        return .some(got == chunk.count ? chunk : chunk.prefix(got))
    }

    /// Closes the file.
    func finish() {
        guard !closed else { return }
        closed = true
        close(fd)
    }
}

/// FNV-1a, 64-bit: the checksum a disk store keeps for each record and body, so a corrupt file is a miss.
struct CacheChecksum {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        value = hash
    }

    mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    static func of(_ data: Data) -> UInt64 {
        var checksum = CacheChecksum()
        checksum.update(data)
        return checksum.value
    }

    static func of(_ string: String) -> UInt64 {
        var string = string
        return string.withUTF8 { bytes in
            var checksum = CacheChecksum()
            checksum.update(UnsafeRawBufferPointer(bytes))
            return checksum.value
        }
    }
}
