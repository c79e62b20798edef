import Foundation

/// Writes responses to a connection, pacing and breaking them as their ``TestResponse/Body`` says.
struct ResponseWriter {
    let fd: Int32
    let core: ServerCore

    /// What the connection does after a response.
    enum Completion: Equatable {
        /// Read the next request.
        case keepOpen
        /// Close cleanly (FIN, then drain what the client still sends).
        case close
        /// Close with a TCP RST.
        case reset
        /// Close at once: the peer is gone or the server is shutting down.
        case abandon
    }

    /// Sends the interim `100 Continue` response.
    func writeContinue() throws(ConnectionError) {
        try send(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
    }

    /// Writes a response to the request `head`.
    /// - Parameters:
    ///   - response: the response.
    ///   - head: the request it answers (its method, version and `Connection` field matter).
    /// - Returns: what to do with the connection next.
    /// - Throws: `ConnectionError.io` when the peer is gone, `.shuttingDown` when shutdown interrupts a pause.
    func write(_ response: TestResponse, answering head: RequestHead) throws(ConnectionError) -> Completion {
        if response.delay > .zero {
            guard core.pause(for: response.delay) else { throw .shuttingDown }
        }
        if case .fault(let fault) = response.body.storage {
            return perform(fault)
        }
        let plan = WirePlan(response: response, head: head)
        let headBytes = ResponseHead.render(status: response.status, headers: plan.headers)
        guard plan.sendsBody else {
            try send(headBytes)
            return plan.closes ? .close : .keepOpen
        }
        switch response.body.storage {
        case .data(let data):
            try send(data.count <= 64 * 1024 ? headBytes + data : headBytes)
            if data.count > 64 * 1024 { try send(data) }
        case .paced(let pieces, let interval):
            try send(headBytes)
            try writePaced(pieces, interval: interval, chunked: false)
        case .chunked(let chunks, let delay):
            try send(headBytes)
            try writePaced(chunks, interval: delay, chunked: plan.chunked)
            if plan.chunked { try send(Data("0\r\n\r\n".utf8)) }
        case .pattern(let pattern):
            try send(headBytes)
            try writePattern(pattern, chunked: plan.chunked)
        case .fault:
            break
        }
        return plan.closes ? .close : .keepOpen
    }

    /// Writes a small JSON error before the connection closes (400, 413, 431, …); failures are ignored.
    func writeError(status: Int, reason: String) {
        let response = TestResponse.jsonObject(["error": reason, "status": status], status: status)
            .adding(header: "Connection", value: "close")
        let head = RequestHead(
            method: "GET", target: "/", majorVersion: 1, minorVersion: 1, headers: [("Connection", "close")]
        )
        _ = try? write(response, answering: head)
    }

    // MARK: Bodies

    private func writePaced(_ pieces: [Data], interval: Duration, chunked: Bool) throws(ConnectionError) {
        for (index, piece) in pieces.enumerated() {
            if index > 0, interval > .zero {
                guard core.pause(for: interval) else { throw .shuttingDown }
            }
            if chunked {
                try send(Data("\(String(piece.count, radix: 16))\r\n".utf8) + piece + Data("\r\n".utf8))
            } else {
                try send(piece)
            }
        }
    }

    private func writePattern(_ pattern: TestResponse.Body.Pattern, chunked: Bool) throws(ConnectionError) {
        let chunkSize = chunked ? (pattern.chunkSize ?? PatternBytes.blockSize) : PatternBytes.blockSize
        var sent = 0
        while sent < pattern.count {
            let length = min(chunkSize, pattern.count - sent)
            if chunked { try send(Data("\(String(length, radix: 16))\r\n".utf8)) }
            var written = 0
            while written < length {
                let block = min(PatternBytes.blockSize, length - written)
                try PatternBytes.withBlock(offset: pattern.offset + sent + written, count: block) { bytes in
                    sendResult(bytes)
                }.get()
                written += block
            }
            if chunked { try send(Data("\r\n".utf8)) }
            sent += length
        }
        if chunked { try send(Data("0\r\n\r\n".utf8)) }
    }

    // MARK: Faults

    private func perform(_ fault: TestResponse.Fault) -> Completion {
        do {
            if !fault.bytes.isEmpty { try send(fault.bytes) }
        } catch {
            return .abandon
        }
        switch fault.ending {
        case .close:
            return .close
        case .reset:
            return .reset
        case .stall:
            stall()
            return .abandon
        case .repeatBytes:
            // About 16 KiB per send; ends when a send fails: the peer left, or shutdown shut the socket down.
            guard !fault.bytes.isEmpty else { return .close }
            let block = Data(repeatElement(fault.bytes, count: max(1, 16_384 / fault.bytes.count)).joined())
            while (try? send(block)) != nil {}
            return .abandon
        }
    }

    /// Sends nothing until the peer leaves or the server shuts down, discarding whatever the peer sends.
    private func stall() {
        var scratch = [UInt8].zeroed(count: 4096)
        while true {
            switch core.waitForInput(fd) {
            case .woken:
                return
            case .timedOut:
                continue
            case .readable:
                let count = scratch.withUnsafeMutableBytes { try? POSIX.receive(fd, into: $0) }
                guard let count, count > 0 else { return }
            }
        }
    }

    // MARK: Sending

    private func send(_ data: Data) throws(ConnectionError) {
        try data.withUnsafeBytes { sendResult($0) }.get()
    }

    private func sendResult(_ bytes: UnsafeRawBufferPointer) -> Result<Void, ConnectionError> {
        Result { () throws(SystemCallError) in try POSIX.sendAll(fd, bytes) }.mapError { .io($0.code) }
    }
}

/// The framing decisions for one response: which fields the server adds, whether a body follows, and whether the
/// connection stays open.
struct WirePlan {
    private(set) var headers: [(name: String, value: String)]
    /// Whether body bytes follow the head (not for HEAD, 1xx, 204, 304).
    private(set) var sendsBody: Bool
    /// Whether the body is sent with chunked transfer coding.
    private(set) var chunked = false
    /// Whether the connection closes after this response.
    private(set) var closes: Bool

    init(response: TestResponse, head: RequestHead) {
        headers = response.headers
        let status = response.status
        let bodiless = TestResponse.isBodiless(status)
        sendsBody = !bodiless && head.method != "HEAD"
        let connection = response.header("Connection")?.lowercased() ?? ""
        // A 1xx sent as a final answer leaves the client waiting for another head: close so it cannot hang.
        closes = !head.wantsKeepAlive || connection.contains("close") || (100..<200).contains(status)
        let setsFraming = response.header("Content-Length") != nil || response.header("Transfer-Encoding") != nil

        var length: Int?
        switch response.body.storage {
        case .data(let data): length = data.count
        case .paced(let pieces, _): length = pieces.reduce(0) { $0 + $1.count }
        case .pattern(let pattern) where pattern.chunkSize == nil: length = pattern.count
        case .chunked, .pattern: chunked = head.minorVersion >= 1
        case .fault: break
        }
        if !bodiless, !setsFraming {
            if let length {
                headers.append(("Content-Length", "\(length)"))
            } else if chunked {
                headers.append(("Transfer-Encoding", "chunked"))
            } else {
                // An HTTP/1.0 client cannot read chunks: the end of the stream ends the body.
                closes = true
            }
        }
        if closes, response.header("Connection") == nil { headers.append(("Connection", "close")) }
        if response.header("Date") == nil { headers.append(("Date", HTTPDate.format(Date()))) }
    }
}
