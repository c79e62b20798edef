import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Writes every byte to `descriptor`, retrying short writes.
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        offset += written
    }
}

/// A file read into `ByteBuffer`s of `chunkSize` bytes, for a streamed AsyncHTTPClient request body.
struct FileBuffers: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let path: String
    let chunkSize: Int

    func makeAsyncIterator() -> Iterator { Iterator(path: path, chunkSize: chunkSize) }

    struct Iterator: AsyncIteratorProtocol {
        let path: String
        let chunkSize: Int
        var descriptor: Int32 = -1
        var done = false
        let allocator = ByteBufferAllocator()

        init(path: String, chunkSize: Int) {
            self.path = path
            self.chunkSize = chunkSize
        }

        mutating func next() async throws -> ByteBuffer? {
            if done { return nil }
            if descriptor < 0 {
                descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            }
            var buffer = allocator.buffer(capacity: chunkSize)
            let fd = descriptor
            let count = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: chunkSize) { target in
                while true {
                    let got = read(fd, target.baseAddress!, chunkSize)
                    if got >= 0 { return got }
                    if errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                }
            }
            if count == 0 {
                close(descriptor)
                descriptor = -1
                done = true
                return nil
            }
            return buffer
        }
    }
}
