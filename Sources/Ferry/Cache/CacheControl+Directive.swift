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
        var directives: [CacheControlDirective] = []
        let characters = Array(value)
        var index = 0
        func skipWhitespace() {
            while index < characters.count, characters[index] == " " || characters[index] == "\t" { index += 1 }
        }
        while index < characters.count {
            // Separators and empty elements.
            while index < characters.count, ", \t".contains(characters[index]) { index += 1 }
            guard index < characters.count else { break }
            let nameStart = index
            while index < characters.count, characters[index] != "=", characters[index] != "," { index += 1 }
            let name = String(characters[nameStart..<index]).trimmingOWS.lowercased()
            var argument: String?
            if index < characters.count, characters[index] == "=" {
                index += 1
                skipWhitespace()
                if index < characters.count, characters[index] == "\"" {
                    index += 1
                    var text = ""
                    while index < characters.count, characters[index] != "\"" {
                        // quoted-pair (RFC 9110 §5.6.4): the backslash is dropped, the next character kept.
                        if characters[index] == "\\", index + 1 < characters.count { index += 1 }
                        text.append(characters[index])
                        index += 1
                    }
                    argument = text
                    while index < characters.count, characters[index] != "," { index += 1 }
                } else {
                    let start = index
                    while index < characters.count, characters[index] != "," { index += 1 }
                    argument = String(characters[start..<index]).trimmingOWS
                }
            }
            if !name.isEmpty { directives.append(CacheControlDirective(name: name, argument: argument)) }
        }
        return directives
    }
}
