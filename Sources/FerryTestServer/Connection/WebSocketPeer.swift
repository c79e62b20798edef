import Foundation

/// The server's side of a WebSocket on the `/ws/…` endpoints: the upgrade, then a script chosen by the path, then
/// an echo of every message until the client closes.
///
/// - `/ws/echo`: echoes each message (reassembled) as one frame of the same type.
/// - `/ws/fragmented`: first sends `Hello, wörld` in three fragments, the `ö` split between two of them and a ping
///   between them.
/// - `/ws/bad-utf8`: first sends a text frame that is not UTF-8.
/// - `/ws/oversize?size=N`: first sends one binary frame of `N` bytes (4096 by default);
///   `/ws/oversize-fragmented?size=N` sends them in 512-byte fragments.
/// - `/ws/close?code=N`: sends a close frame with code `N` (1000 by default) and reason `bye`.
/// - `/ws/ping`: sends a ping `are you there`, then `pong: are you there` when the pong matches (`no pong` if not).
/// - `/ws/no-pong`: echoes as `/ws/echo` does, but never answers a ping: a peer that has gone quiet.
/// - `/ws/wrong-protocol`: accepts with the subprotocol `nonsense`, whatever was offered.
/// - `/ws/deflate`: accepts `permessage-deflate` when offered and first sends `compressed hello` compressed (DEFLATE
///   stored blocks, RSV1 set); uncompressed when it was not offered. The client's messages must stay uncompressed.
///
/// Any other path accepts with the first offered subprotocol among `ferry.v2` and `ferry.v1`. The close code the
/// client sends is recorded (``TestServer/receivedCloseCodes``) and echoed.
struct WebSocketPeer {
    /// The subprotocols the server knows, in its order.
    static let knownProtocols = ["ferry.v2", "ferry.v1"]

    let fd: Int32
    let core: ServerCore

    /// Whether `head` asks for a WebSocket on one of the `/ws/` endpoints.
    static func isUpgrade(_ head: RequestHead, path: String) -> Bool {
        path.hasPrefix("/ws/") && head.header("Upgrade")?.lowercased() == "websocket"
            && head.header("Sec-WebSocket-Key") != nil
    }

    /// Accepts the upgrade and runs the endpoint's script.
    /// - Returns: how the connection ends.
    func serve(_ request: TestRequest, reader: inout SocketReader) -> ResponseWriter.Completion {
        do {
            try accept(request)
            let closed = try script(request, reader: &reader)
            try echo(reader: &reader, closeSent: closed, answersPings: request.path != "/ws/no-pong")
            return .close
        } catch {
            return .abandon
        }
    }

    private func accept(_ request: TestRequest) throws(ConnectionError) {
        let key = request.header("Sec-WebSocket-Key") ?? ""
        let accept = Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
            .base64EncodedString()
        var head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Accept: \(accept)\r\n"
        let offered = request.headerValues("Sec-WebSocket-Protocol")
            .flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        if request.path == "/ws/deflate", Self.offersDeflate(request) {
            head += "Sec-WebSocket-Extensions: permessage-deflate\r\n"
        }
        if request.path == "/ws/wrong-protocol" {
            head += "Sec-WebSocket-Protocol: nonsense\r\n"
        } else if let chosen = offered.first(where: Self.knownProtocols.contains) {
            head += "Sec-WebSocket-Protocol: \(chosen)\r\n"
        }
        try send(Array((head + "\r\n").utf8))
    }

    /// Runs the path's script. - Returns: whether it sent a close frame.
    private func script(_ request: TestRequest, reader: inout SocketReader) throws(ConnectionError) -> Bool {
        switch request.path {
        case "/ws/fragmented":
            let text = Array("Hello, wörld".utf8)
            // "Hello, w" + the first byte of "ö" | the ping | the second byte of "ö" + "rl" | "d"
            try send(WebSocketFrame(fin: false, opcode: WebSocketFrame.Opcode.text, payload: Array(text[0..<9])))
            try send(WebSocketFrame(fin: true, opcode: WebSocketFrame.Opcode.ping, payload: Array("mid".utf8)))
            try send(
                WebSocketFrame(fin: false, opcode: WebSocketFrame.Opcode.continuation, payload: Array(text[9..<12])))
            try send(WebSocketFrame(fin: true, opcode: WebSocketFrame.Opcode.continuation, payload: Array(text[12...])))
        case "/ws/deflate":
            let text = Array("compressed hello".utf8)
            if Self.offersDeflate(request) {
                // One non-final stored block; the receiver appends the 00 00 FF FF that permessage-deflate removes.
                let length = UInt16(text.count)
                let block =
                    [0x00, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)] + text
                var frame = WebSocketFrame(fin: true, opcode: WebSocketFrame.Opcode.text, payload: block).encoded
                frame[0] |= 0x40  // RSV1: compressed
                try send(frame)
            } else {
                try send(WebSocketFrame(fin: true, opcode: WebSocketFrame.Opcode.text, payload: text))
            }
        case "/ws/bad-utf8":
            try send(WebSocketFrame(fin: true, opcode: WebSocketFrame.Opcode.text, payload: [0x48, 0xC3, 0x28]))
        case "/ws/oversize":
            let size = request.query("size").flatMap(Int.init) ?? 4096
            try send(WebSocketFrame(fin: true, opcode: WebSocketFrame.Opcode.binary, payload: pattern(size)))
        case "/ws/oversize-fragmented":
            let bytes = pattern(request.query("size").flatMap(Int.init) ?? 4096)
            for start in stride(from: 0, to: bytes.count, by: 512) {
                let end = min(start + 512, bytes.count)
                try send(
                    WebSocketFrame(
                        fin: end == bytes.count,
                        opcode: start == 0 ? WebSocketFrame.Opcode.binary : WebSocketFrame.Opcode.continuation,
                        payload: Array(bytes[start..<end])))
            }
        case "/ws/close":
            try send(.close(code: request.query("code").flatMap(Int.init) ?? 1000, reason: "bye"))
            return true
        case "/ws/ping":
            let payload = Array("are you there".utf8)
            try send(WebSocketFrame(fin: true, opcode: WebSocketFrame.Opcode.ping, payload: payload))
            let answer = try WebSocketFrame.read(from: &reader)
            let matched = answer.opcode == WebSocketFrame.Opcode.pong && answer.payload == payload
            let text = matched ? "pong: are you there" : "no pong"
            try send(WebSocketFrame(fin: true, opcode: WebSocketFrame.Opcode.text, payload: Array(text.utf8)))
        default:
            break
        }
        return false
    }

    /// Echoes messages until the client's close frame, which is recorded and, unless the server sent one first,
    /// answered with the same code; counts pings, and answers them when `answersPings`.
    private func echo(reader: inout SocketReader, closeSent: Bool, answersPings: Bool) throws(ConnectionError) {
        var message: (opcode: UInt8, payload: [UInt8])?
        while true {
            let frame = try WebSocketFrame.read(from: &reader)
            switch frame.opcode {
            case WebSocketFrame.Opcode.close:
                core.closeCodes.record(frame.closeCode)
                if !closeSent { try send(.close(code: frame.closeCode == 1005 ? 1000 : frame.closeCode)) }
                return
            case WebSocketFrame.Opcode.ping:
                core.pingCount.withLock { $0 += 1 }
                guard answersPings else { continue }
                try send(WebSocketFrame(fin: true, opcode: WebSocketFrame.Opcode.pong, payload: frame.payload))
            case WebSocketFrame.Opcode.pong:
                continue
            case WebSocketFrame.Opcode.continuation:
                message?.payload += frame.payload
            default:
                message = (frame.opcode, frame.payload)
            }
            if frame.fin, frame.opcode < 8, let whole = message {
                message = nil
                try send(WebSocketFrame(fin: true, opcode: whole.opcode, payload: whole.payload))
            }
        }
    }

    private static func offersDeflate(_ request: TestRequest) -> Bool {
        request.headerValues("Sec-WebSocket-Extensions").contains { $0.contains("permessage-deflate") }
    }

    private func pattern(_ count: Int) -> [UInt8] {
        (0..<max(0, count)).map { UInt8($0 % 251) }
    }

    private func send(_ frame: WebSocketFrame) throws(ConnectionError) {
        try send(frame.encoded)
    }

    private func send(_ bytes: [UInt8]) throws(ConnectionError) {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SystemCallError) in try POSIX.sendAll(fd, raw) }.mapError { ConnectionError.io($0.code) }
        }.get()
    }
}
