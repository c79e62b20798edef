/// Percent-escaping and joining of name–value pairs for URL query strings and form bodies, and the reverse.
///
/// Escaping is strict: everything but the RFC 3986 unreserved characters (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `.`,
/// `_`, `~`) is written as `%XX` of its UTF-8 bytes, so a value can never break out of its pair.
public enum FormURLEncoding {
    /// How a space is written.
    public enum SpaceEncoding: Sendable, Hashable {
        /// `%20`, right in any part of a URL.
        case percentEscaped
        /// `+`, as HTML forms write `application/x-www-form-urlencoded` bodies.
        case plus
    }

    /// Escapes every character that is not RFC 3986 unreserved.
    /// - Parameters:
    ///   - string: The text to escape.
    ///   - spaces: How to write a space; `%20` unless set.
    /// - Returns: The escaped text, such as `a%2Bb%20c` for `a+b c`.
    public static func percentEscape(_ string: String, spaces: SpaceEncoding = .percentEscaped) -> String {
        guard !string.utf8.allSatisfy(isUnreserved) else { return string }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(string.utf8.count * 3)
        for byte in string.utf8 {
            if isUnreserved(byte) {
                escaped.append(byte)
            } else if byte == UInt8(ascii: " "), spaces == .plus {
                escaped.append(UInt8(ascii: "+"))
            } else {
                escaped.append(UInt8(ascii: "%"))
                escaped.append(hexDigit(byte >> 4))
                escaped.append(hexDigit(byte & 0x0F))
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Escapes and joins pairs into a query string or form body, without a leading `?`.
    /// - Parameters:
    ///   - pairs: The names and values, in order, unescaped.
    ///   - spaces: How to write a space; `%20` unless set.
    /// - Returns: Text such as `a=1&b=x%20y`; empty for no pairs.
    public static func query(
        _ pairs: some Sequence<(name: String, value: String)>,
        spaces: SpaceEncoding = .percentEscaped
    ) -> String {
        pairs.map { percentEscape($0.name, spaces: spaces) + "=" + percentEscape($0.value, spaces: spaces) }
            .joined(separator: "&")
    }

    /// Splits a query string or form body into decoded pairs, turning `+` into a space and `%XX` into bytes.
    ///
    /// A leading `?` is ignored, empty parts (`a=1&&b=2`) are skipped, a part without `=` has an empty value,
    /// malformed escapes are kept as written, and bytes that are not UTF-8 become U+FFFD.
    /// - Parameter query: The query string or form body.
    /// - Returns: The pairs in order, repeated names included.
    public static func pairs(fromQuery query: String) -> [(name: String, value: String)] {
        var query = Substring(query)
        if query.first == "?" { query = query.dropFirst() }
        return query.split(separator: "&").map { part in
            guard let equals = part.firstIndex(of: "=") else { return (unescape(part), "") }
            return (unescape(part[..<equals]), unescape(part[part.index(after: equals)...]))
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func unescape(_ text: Substring) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(text) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(utf8.count)
        var position = 0
        while position < utf8.count {
            let byte = utf8[position]
            if byte == UInt8(ascii: "+") {
                decoded.append(UInt8(ascii: " "))
                position += 1
            } else if byte == UInt8(ascii: "%"), position + 2 < utf8.count,
                let high = hexValue(utf8[position + 1]), let low = hexValue(utf8[position + 2])
            {
                decoded.append(high << 4 | low)
                position += 3
            } else {
                decoded.append(byte)
                position += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
