/// Serves the requests of one TCP connection, one after the other, on the connection's own thread.
struct Connection {
    /// The largest request head accepted; larger ones get 431.
    static let headLimit = 64 * 1024
    /// The largest body kept in memory for a handler; larger ones get 413.
    static let bufferedBodyLimit = 64 * 1024 * 1024
    /// The largest body `/upload` counts (it keeps none of it); larger ones get 413.
    static let streamedBodyLimit = 4 * 1024 * 1024 * 1024

    let fd: Int32
    let core: ServerCore

    /// Reads requests and writes responses until either side closes, then closes the descriptor.
    func run() {
        var reader = SocketReader(fd: fd, core: core)
        let writer = ResponseWriter(fd: fd, core: core)
        var completion = ResponseWriter.Completion.keepOpen
        while completion == .keepOpen {
            do {
                completion = try serveOne(from: &reader, writer: writer)
            } catch {
                if let status = error.status {
                    writer.writeError(status: status, reason: error.reason)
                    completion = .close
                } else {
                    completion = .abandon
                }
            }
        }
        switch completion {
        case .reset:
            waitUntilAcknowledged()
            core.release(fd, reset: true)
        case .close:
            closeGracefully()
        case .abandon, .keepOpen:
            core.release(fd, reset: false)
        }
    }

    /// Reads one request, runs its handler and writes the response.
    /// - Returns: what to do with the connection next; `.abandon` when the peer closed between requests.
    private func serveOne(
        from reader: inout SocketReader, writer: ResponseWriter
    ) throws(ConnectionError) -> ResponseWriter.Completion {
        guard let headBytes = try reader.readHead(limit: Self.headLimit) else { return .abandon }
        let head = try RequestParser.parse(headBytes)
        let framing = try head.bodyFraming()
        var request = TestRequest(
            method: head.method, target: head.target, headers: head.headers, httpVersion: head.version)
        if WebSocketPeer.isUpgrade(head, path: request.path) {
            core.record(request)
            return WebSocketPeer(fd: fd, core: core).serve(request, reader: &reader)
        }
        let route = Router.route(for: request, core: core)
        if head.expectsContinue, framing.hasBody, head.minorVersion >= 1 {
            try writer.writeContinue()
        }
        switch route.bodyHandling {
        case .buffer:
            var sink = BufferingSink(limit: Self.bufferedBodyLimit)
            try BodyReader.read(framing, from: &reader, into: &sink)
            request.body = sink.data
        case .digest:
            var sink = DigestSink(limit: Self.streamedBodyLimit)
            try BodyReader.read(framing, from: &reader, into: &sink)
            request.streamedBody = sink.summary
        }
        core.record(request)
        let response = route.respond(request)
        return try writer.write(response, answering: head)
    }

    /// Waits (briefly) until the peer has acknowledged every byte sent, because a reset discards whatever is still
    /// queued: a client must see the bytes a fault sent before the RST that follows them.
    private func waitUntilAcknowledged() {
        for _ in 0..<100 {
            guard let pending = POSIX.unacknowledgedByteCount(fd), pending > 0 else { return }
            guard core.pause(for: .milliseconds(10)) else { return }
        }
    }

    /// Sends a FIN, then reads and discards what the client still sends (briefly), so that unread request bytes do
    /// not turn the close into a reset that could destroy the response in flight.
    private func closeGracefully() {
        POSIX.shutdownWrite(fd)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(2))
        var scratch = [UInt8].zeroed(count: 16 * 1024)
        var drained = 0
        drain: while drained < 1024 * 1024 {
            switch core.waitForInput(fd, timeout: clock.now.duration(to: deadline)) {
            case .woken, .timedOut:
                break drain
            case .readable:
                let count = scratch.withUnsafeMutableBytes { try? POSIX.receive(fd, into: $0) }
                guard let count, count > 0 else { break drain }
                drained += count
            }
        }
        core.release(fd, reset: false)
    }
}
