/// Buffered reading from a connection, with every wait interruptible by the server's shutdown.
///
/// One buffer per connection, allocated once and reused: bytes are received into its free tail, and what is left
/// unread moves to the front when room is needed. It grows only for a head or line larger than it.
struct SocketReader {
    /// How many bytes one receive asks for at most, and the buffer's starting size.
    static let receiveSize = 64 * 1024

    private let fd: Int32
    private let core: ServerCore
    private var buffer: [UInt8] = []
    /// The unread bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    /// Where the search for the end of the head resumes, so that a slow client costs linear time.
    private var scanned = 0

    init(fd: Int32, core: ServerCore) {
        self.fd = fd
        self.core = core
    }

    private var available: Int { end - start }

    /// Reads one request head.
    /// - Parameter limit: the most bytes the head may take, final empty line included.
    /// - Returns: the head without its final empty line, or `nil` when the peer closed before sending anything.
    /// - Throws: `ConnectionError.headTooLarge`, `.closed` for a partial head, `.shuttingDown`, `.io`.
    mutating func readHead(limit: Int) throws(ConnectionError) -> ArraySlice<UInt8>? {
        skipLeadingLineBreaks()
        scanned = start
        while true {
            if let headEnd = headEnd() {
                guard headEnd - start <= limit else { throw .headTooLarge }
                let head = buffer[start..<headEnd]
                start = headEnd
                return head
            }
            guard available <= limit else { throw .headTooLarge }
            guard try fill() else {
                skipLeadingLineBreaks()
                if available == 0 { return nil }
                throw .closed
            }
            skipLeadingLineBreaks()
        }
    }

    /// Reads one line (for chunk sizes and trailers).
    /// - Parameter limit: the longest line accepted.
    /// - Returns: the line without its CRLF or LF.
    mutating func readLine(limit: Int) throws(ConnectionError) -> ArraySlice<UInt8> {
        var searched = 0
        while true {
            if let newline = buffer[(start + searched)..<end].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[start..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                start = newline + 1
                return line
            }
            searched = available
            guard available <= limit else { throw .badRequest("line too long") }
            guard try fill() else { throw .closed }
        }
    }

    /// Hands buffered (or freshly received) bytes to `body`, at most `maximum` of them.
    /// - Throws: `ConnectionError.closed` at end of stream, and whatever `body` throws.
    mutating func consume(
        atMost maximum: Int,
        _ body: (ArraySlice<UInt8>) throws(ConnectionError) -> Void
    ) throws(ConnectionError) -> Int {
        if available == 0 {
            guard try fill() else { throw .closed }
        }
        let count = min(maximum, available)
        try body(buffer[start..<start + count])
        start += count
        return count
    }

    /// Receives more bytes.
    /// - Returns: `false` at end of stream.
    private mutating func fill() throws(ConnectionError) -> Bool {
        switch core.waitForInput(fd) {
        case .woken: throw .shuttingDown
        case .timedOut, .readable: break
        }
        makeRoom()
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemCallError) in
                try POSIX.receive(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[end...]))
            }
        }
        switch result {
        case .success(let received):
            end += received
            return received > 0
        case .failure(let error):
            throw .io(error.code)
        }
    }

    /// Makes the free tail at least ``receiveSize`` bytes long: the unread bytes move to the front, and the buffer
    /// grows only when they alone fill it.
    private mutating func makeRoom() {
        if buffer.count - end >= Self.receiveSize { return }
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                base.update(from: base + start, count: end - start)
            }
            scanned -= start
            end -= start
            start = 0
        }
        if buffer.count - end < Self.receiveSize {
            buffer = buffer.withUnsafeBufferPointer { unread in
                .zeroed(count: end + Self.receiveSize, prefix: UnsafeBufferPointer(rebasing: unread[..<end]))
            }
        }
    }

    /// Drops the empty lines a client may send between requests (RFC 9112 §2.2).
    private mutating func skipLeadingLineBreaks() {
        while start < end, buffer[start] == UInt8(ascii: "\r") || buffer[start] == UInt8(ascii: "\n") {
            start += 1
        }
    }

    /// The index just past the empty line that ends the head, if it has arrived.
    private mutating func headEnd() -> Int? {
        var index = max(scanned, start)
        while index < end {
            if buffer[index] == UInt8(ascii: "\n") {
                if index + 1 < end, buffer[index + 1] == UInt8(ascii: "\n") { return index + 2 }
                if index + 2 < end, buffer[index + 1] == UInt8(ascii: "\r"),
                    buffer[index + 2] == UInt8(ascii: "\n")
                {
                    return index + 3
                }
                if index + 2 >= end {
                    scanned = index
                    return nil
                }
            }
            index += 1
        }
        scanned = index
        return nil
    }
}
