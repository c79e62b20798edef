import Foundation

extension HTTPHeaders {
    /// The elements of a list-based field (RFC 9110 §5.6.1) across every line named `name`, in order: each split at
    /// its commas, trimmed of spaces and tabs, empty elements dropped. For fields whose elements hold no quoted
    /// commas (`Vary`, `Connection`, `Age`); `Cache-Control` has its own parser.
    /// - Parameter name: The field name, compared case-insensitively.
    /// - Returns: The elements; empty when there is none.
    func listElements(for name: String) -> [String] {
        values(for: name).flatMap { $0.split(separator: ",") }.compactMap {
            let element = $0.trimmingOWS
            return element.isEmpty ? nil : element
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing optional whitespace, spaces and horizontal tabs (RFC 9110 §5.6.3).
    ///
    /// By hand rather than `trimmingCharacters(in: .whitespaces)`, which on Linux goes through `NSString` and was a
    /// fifth of a cache hit's time (`cached-sequential` in Benchmarks/README.md, "The HTTP cache").
    var trimmingOWS: String {
        let text = Substring(self)
        let bytes = text.utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        while start < end {
            let last = bytes.index(before: end)
            guard bytes[last] == 0x20 || bytes[last] == 0x09 else { break }
            end = last
        }
        return String(text[start..<end])
    }
}
