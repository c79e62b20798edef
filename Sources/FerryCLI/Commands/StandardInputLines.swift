import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input's lines for `ferry ws`, read on a thread of its own (a blocking read must not hold one of Swift's
/// few cooperative threads) and at most one line ahead of the reader, so that a large file piped in waits in the
/// pipe rather than in memory while the socket is slow.
///
/// A line ends at `\n`, which is not part of it; with `strippingCarriageReturn`, a `\r` before it is dropped too.
/// The last line counts even without its `\n`.
final class StandardInputLines: Sendable {
    /// The lines, as bytes; call ``consumed()`` after each one to let the next be read.
    let lines: AsyncStream<Data>
    private let continuation: AsyncStream<Data>.Continuation
    private let wanted = DispatchSemaphore(value: 0)

    /// Starts reading.
    /// - Parameters:
    ///   - descriptor: The file descriptor to read; standard input by default.
    ///   - strippingCarriageReturn: Whether `\r\n` ends a line as `\n` does.
    init(descriptor: Int32 = STDIN_FILENO, strippingCarriageReturn: Bool) {
        (lines, continuation) = AsyncStream.makeStream(of: Data.self)
        let continuation = continuation
        let wanted = wanted
        let thread = Thread {
            var reader = LineReader(descriptor: descriptor, strippingCarriageReturn: strippingCarriageReturn)
            while let line = reader.next() {
                continuation.yield(line)
                wanted.wait()
            }
            continuation.finish()
        }
        thread.start()
    }

    /// Lets the next line be read.
    func consumed() {
        wanted.signal()
    }
}

/// Splits what a file descriptor delivers into lines, with blocking reads.
struct LineReader {
    let descriptor: Int32
    let strippingCarriageReturn: Bool
    private var buffer = Data()
    private var ended = false

    init(descriptor: Int32, strippingCarriageReturn: Bool) {
        self.descriptor = descriptor
        self.strippingCarriageReturn = strippingCarriageReturn
    }

    /// The next line, or `nil` at the end of the input (or on a read error).
    mutating func next() -> Data? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                var line = Data(buffer[buffer.startIndex..<newline])
                buffer = Data(buffer[buffer.index(after: newline)...])
                if strippingCarriageReturn, line.last == 0x0D { line.removeLast() }
                return line
            }
            if ended {
                guard !buffer.isEmpty else { return nil }
                defer { buffer = Data() }
                return buffer
            }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
            } else if count < 0, errno == EINTR {
                continue
            } else {
                ended = true
            }
        }
    }
}
