#if AsyncHTTPClient
import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file body read straight into the engine's buffers, `chunkSize` bytes at a time: one copy from the page cache,
/// none through `Data`. Counted as it is sent; it fails if the file is shorter than when it was measured.
struct FileByteBuffers: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let url: URL
    let size: Int64
    let counter: UploadCounter
    var chunkSize = 256 << 10

    func makeAsyncIterator() -> Iterator {
        Iterator(file: OpenFile(url: url), size: size, counter: counter, chunkSize: chunkSize)
    }

    /// Reads the next buffer.
    struct Iterator: AsyncIteratorProtocol {
        let file: OpenFile
        let size: Int64
        let counter: UploadCounter
        let chunkSize: Int
        var sent: Int64 = 0
        let allocator = ByteBufferAllocator()

        mutating func next() async throws -> ByteBuffer? {
            guard sent < size else {
                file.close()
                return nil
            }
            let wanted = Int(Swift.min(Int64(chunkSize), size - sent))
            var buffer = allocator.buffer(capacity: wanted)
            let read = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: wanted) { target in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: target.prefix(wanted)))
            }
            guard read > 0 else {
                file.close()
                throw FerryError(.fileSystemFailed("the upload file \(file.url.path) changed while it was sent"))
            }
            sent += Int64(read)
            counter.add(read)
            return buffer
        }
    }

    /// The file's descriptor, opened on first read and closed at the end, on failure, or when the body is dropped.
    final class OpenFile: Sendable {
        let url: URL
        private let descriptor = Locked<Int32?>(nil)

        init(url: URL) {
            self.url = url
        }

        deinit {
            close()
        }

        /// Reads up to `target.count` bytes; 0 at the end of the file.
        func read(into target: UnsafeMutableRawBufferPointer) throws(FerryError) -> Int {
            let fd = try open()
            while true {
                let count = Foundation.read(fd, target.baseAddress, target.count)
                if count >= 0 { return count }
                if errno == EINTR { continue }
                let code = errno
                close()
                throw FerryError(
                    .fileSystemFailed("cannot read the upload file \(url.path)"),
                    underlyingError: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
            }
        }

        private func open() throws(FerryError) -> Int32 {
            try descriptor.withLock { descriptor throws(FerryError) in
                if let descriptor { return descriptor }
                let fd = Foundation.open(url.path, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else {
                    throw FerryError(
                        .fileSystemFailed("cannot open the upload file \(url.path)"),
                        underlyingError: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                }
                descriptor = fd
                return fd
            }
        }

        func close() {
            if let fd = descriptor.withLock({ $0.take() }) { _ = Foundation.close(fd) }
        }
    }
}
#endif
