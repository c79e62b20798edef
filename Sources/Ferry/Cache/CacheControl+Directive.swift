import Foundation

/// One directive of a `Cache-Control` (or `Pragma`) field: a lowercased name and its argument, unquoted.
struct CacheControlDirective: Sendable, Hashable {
    /// The name, lowercased (directive names are case-insensitive, RFC 9111 §5.2).
    var name: String
    /// The argument after `=`, with quotes and backslash escapes removed; `nil` when there is no `=`.
    var argument: String?

    /// Splits a field value into its directives, in order.
    ///
    /// `directive *( OWS "," OWS directive )` with `directive = token [ "=" ( token / quoted-string ) ]` (§5.2).
    /// A comma inside a quoted string does not end the directive (`no-cache="a, b"`). Tolerant of what senders get
    /// wrong: empty elements are skipped, whitespace around names and `=` is allowed, an unterminated quoted string
    /// runs to the end, and anything after a closing quote up to the next comma is dropped.
    /// - Parameter value: The field value.
    /// - Returns: The directives.
    static func list(in value: String) -> [CacheControlDirective] {
        // Read as bytes: the syntax is ASCII, and a quoted argument's other bytes are kept as they are. (Reading
        // characters cost most of a lookup's time: `cached-sequential`, "The HTTP cache" in Benchmarks/README.md.)
        var value = value
        return value.withUTF8 { bytes in
            func isWhitespace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            func text(_ range: Range<Int>) -> String {
                var range = range
                while let first = range.first, isWhitespace(bytes[first]) { range = range.dropFirst() }
                while let last = range.last, isWhitespace(bytes[last]) { range = range.dropLast() }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            var directives: [CacheControlDirective] = []
            var index = 0
            while index < bytes.count {
                // Separators and empty elements.
                while index < bytes.count, bytes[index] == UInt8(ascii: ",") || isWhitespace(bytes[index]) {
                    index += 1
                }
                guard index < bytes.count else { break }
                let nameStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ",") {
                    index += 1
                }
                let name = text(nameStart..<index).lowercased()
                var argument: String?
                if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                    index += 1
                    while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                        index += 1
                        var unquoted: [UInt8] = []
                        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                            // quoted-pair (RFC 9110 §5.6.4): the backslash is dropped, the next byte kept.
                            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                            unquoted.append(bytes[index])
                            index += 1
                        }
                        argument = String(decoding: unquoted, as: UTF8.self)
                        while index < bytes.count, bytes[index] != UInt8(ascii: ",") { index += 1 }
                    } else {
                        let start = index
                        while index < bytes.count, bytes[index] != UInt8(ascii: ",") { index += 1 }
                        argument = text(start..<index)
                    }
                }
                if !name.isEmpty { directives.append(CacheControlDirective(name: name, argument: argument)) }
            }
            return directives
        }
    }
}
