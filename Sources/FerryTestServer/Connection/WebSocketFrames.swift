/// One WebSocket frame as the test server reads and writes it (RFC 6455 §5.2): the server's frames are never
/// masked, the client's are unmasked on reading.
struct WebSocketFrame: Equatable {
    /// The opcodes the server uses.
    enum Opcode {
        static let continuation: UInt8 = 0
        static let text: UInt8 = 1
        static let binary: UInt8 = 2
        static let close: UInt8 = 8
        static let ping: UInt8 = 9
        static let pong: UInt8 = 10
    }

    /// The largest frame payload the server reads; a larger one ends the connection.
    static let readLimit = 16 * 1024 * 1024

    var fin: Bool
    var opcode: UInt8
    var payload: [UInt8]

    /// The frame's bytes on the wire, unmasked.
    var encoded: [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        switch payload.count {
        case ..<126:
            bytes.append(UInt8(payload.count))
        case ..<65_536:
            bytes.append(126)
            bytes += [UInt8(payload.count >> 8), UInt8(truncatingIfNeeded: payload.count)]
        default:
            bytes.append(127)
            bytes += stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: payload.count >> $0) }
        }
        return bytes + payload
    }

    /// A close frame with `code` and `reason`.
    static func close(code: Int, reason: String = "") -> WebSocketFrame {
        WebSocketFrame(
            fin: true, opcode: Opcode.close,
            payload: [UInt8(truncatingIfNeeded: code >> 8), UInt8(truncatingIfNeeded: code)] + Array(reason.utf8))
    }

    /// The code of a close frame, `1005` (none) when it carries none.
    var closeCode: Int {
        payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
    }

    /// Reads one frame from the client.
    /// - Throws: `ConnectionError`: the peer closed, a frame over ``readLimit``, shutdown.
    static func read(from reader: inout SocketReader) throws(ConnectionError) -> WebSocketFrame {
        let head = try readBytes(2, from: &reader)
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            length = try readBytes(2, from: &reader).reduce(0) { $0 << 8 | Int($1) }
        } else if length == 127 {
            length = try readBytes(8, from: &reader).reduce(0) { $0 << 8 | Int($1) }
        }
        guard length <= readLimit else { throw .badRequest("WebSocket frame too large") }
        let mask = head[1] & 0x80 != 0 ? try readBytes(4, from: &reader) : nil
        var payload = try readBytes(length, from: &reader)
        if let mask {
            for index in payload.indices { payload[index] ^= mask[index % 4] }
        }
        return WebSocketFrame(fin: head[0] & 0x80 != 0, opcode: head[0] & 0x0F, payload: payload)
    }

    private static func readBytes(_ count: Int, from reader: inout SocketReader) throws(ConnectionError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            _ = try reader.consume(atMost: count - bytes.count) { slice throws(ConnectionError) in
                bytes.append(contentsOf: slice)
            }
        }
        return bytes
    }
}
