import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Data {
    /// Writes the bytes to a file at `url`, replacing one that is there, without the `fsync` of Foundation's
    /// `write(to:)`.
    ///
    /// `Data.write(to:)` flushes the file to the disk before it returns, and a test calls it on one of Swift's two
    /// cooperative threads. While the suite starts, many tests write their files at once and each flush can take
    /// seconds: `gdb` found both threads in `fsync` (`MultipartFormDataTests.inferredMIMEType`, 19 cases), and the
    /// live tests' jobs, waiting behind them, ran into their idle timeouts (RELIABILITY.md, "The two cooperative
    /// threads"). A test's file needs no flush: it is read back by the same machine.
    func writeUnsynced(to url: URL) throws {
        guard let file = fopen(url.path, "we") else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let written = withUnsafeBytes { bytes in bytes.isEmpty ? 0 : fwrite(bytes.baseAddress!, 1, bytes.count, file) }
        let closed = fclose(file)
        guard written == count, closed == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
