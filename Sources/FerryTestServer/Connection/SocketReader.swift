/// Buffered reading from a connection, with every wait interruptible by the server's shutdown.
struct SocketReader {
    private let fd: Int32
    private let core: ServerCore
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the end of the head resumes, so that a slow client costs linear time.
    private var scanned = 0

    init(fd: Int32, core: ServerCore) {
        self.fd = fd
        self.core = core
    }

    private var available: Int { buffer.count - start }

    /// Reads one request head.
    /// - Parameter limit: the most bytes the head may take, final empty line included.
    /// - Returns: the head without its final empty line, or `nil` when the peer closed before sending anything.
    /// - Throws: `ConnectionError.headTooLarge`, `.closed` for a partial head, `.shuttingDown`, `.io`.
    mutating func readHead(limit: Int) throws(ConnectionError) -> ArraySlice<UInt8>? {
        skipLeadingLineBreaks()
        scanned = start
        while true {
            if let end = headEnd() {
                guard end - start <= limit else { throw .headTooLarge }
                let head = buffer[start..<end]
                start = end
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
            if let newline = buffer[(start + searched)...].firstIndex(of: UInt8(ascii: "\n")) {
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
        if start > 0, start == buffer.count || start >= 64 * 1024 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        let capacity = 64 * 1024
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: capacity))
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemCallError) in
                try POSIX.receive(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[oldCount...]))
            }
        }
        guard case .success(let received) = result else {
            buffer.removeLast(capacity)
            if case .failure(let error) = result { throw .io(error.code) }
            return false
        }
        buffer.removeLast(capacity - received)
        return received > 0
    }

    /// Drops the empty lines a client may send between requests (RFC 9112 §2.2).
    private mutating func skipLeadingLineBreaks() {
        while start < buffer.count, buffer[start] == UInt8(ascii: "\r") || buffer[start] == UInt8(ascii: "\n") {
            start += 1
        }
    }

    /// The index just past the empty line that ends the head, if it has arrived.
    private mutating func headEnd() -> Int? {
        var index = max(scanned, start)
        while index < buffer.count {
            if buffer[index] == UInt8(ascii: "\n") {
                if index + 1 < buffer.count, buffer[index + 1] == UInt8(ascii: "\n") { return index + 2 }
                if index + 2 < buffer.count, buffer[index + 1] == UInt8(ascii: "\r"),
                    buffer[index + 2] == UInt8(ascii: "\n")
                {
                    return index + 3
                }
                if index + 2 >= buffer.count {
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
