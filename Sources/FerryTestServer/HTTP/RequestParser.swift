/// Parses a request head (request line and header fields, without the final empty line).
enum RequestParser {
    /// Parses the bytes of a head.
    /// - Parameter bytes: the head, lines ending in CRLF or LF.
    /// - Returns: the parsed head.
    /// - Throws: `ConnectionError.badRequest` or `.unsupportedVersion`.
    static func parse(_ bytes: ArraySlice<UInt8>) throws(ConnectionError) -> RequestHead {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let requestLine = lines.first else { throw .badRequest("empty request") }
        var head = try parseRequestLine(requestLine)
        for line in lines.dropFirst() {
            head.headers.append(try parseField(line))
        }
        return head
    }

    private static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(ConnectionError) -> RequestHead {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte), !parts[1].isEmpty,
            parts[1].allSatisfy({ $0 > 32 && $0 < 127 })
        else { throw .badRequest("malformed request line") }
        let version = Array(parts[2])
        let prefix = Array("HTTP/".utf8)
        guard version.count == 8, Array(version[0..<5]) == prefix, version[6] == UInt8(ascii: "."),
            let major = digit(version[5]), let minor = digit(version[7])
        else { throw .badRequest("malformed HTTP version") }
        guard major == 1 else { throw .unsupportedVersion }
        return RequestHead(
            method: String(decoding: parts[0], as: UTF8.self),
            target: String(decoding: parts[1], as: UTF8.self),
            majorVersion: major,
            minorVersion: minor,
            headers: []
        )
    }

    private static func parseField(_ line: ArraySlice<UInt8>) throws(ConnectionError) -> (name: String, value: String) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .badRequest("header line without colon") }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { throw .badRequest("invalid header name") }
        var value = line[line.index(after: colon)...]
        while let first = value.first, first == 32 || first == 9 { value.removeFirst() }
        while let last = value.last, last == 32 || last == 9 { value.removeLast() }
        return (String(decoding: name, as: UTF8.self), text(value))
    }

    /// Header values are UTF-8 when they are valid UTF-8, ISO-8859-1 otherwise (so no byte is lost).
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (48...57).contains(byte) ? Int(byte - 48) : nil
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
