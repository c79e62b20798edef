import Foundation

/// The secondary cache key (RFC 9111 §4.1): the values a request had for the fields a response's `Vary` names.
///
/// A stored response answers a new request only when both requests' values for every nominated field are the same
/// after normalisation: field names are case-insensitive, the lines of a repeated field are combined into one list
/// (RFC 9110 §5.3), and whitespace around the list's commas is dropped. Values are otherwise compared exactly (case
/// included: a field's own rules might allow more, but this cache knows none). A field absent from both requests
/// matches; absent from one only does not. `Vary: *` never matches (§4.1).
enum VaryKey: Sendable, Hashable {
    /// `Vary: *`: the response varies on something outside the request's fields and is never reused.
    case never
    /// Each nominated field's lowercased name and normalised value (`nil` when the request did not have it).
    case fields([String: String?])

    /// The key a request has for a response's `Vary`.
    /// - Parameters:
    ///   - responseHeaders: The stored response's header fields (for `Vary`).
    ///   - requestHeaders: The header fields of a request.
    init(responseHeaders: HTTPHeaders, requestHeaders: HTTPHeaders) {
        let names = Self.nominatedFields(responseHeaders)
        guard !names.contains("*") else {
            self = .never
            return
        }
        var fields: [String: String?] = [:]
        for name in names { fields[name] = Self.normalisedValue(of: name, in: requestHeaders) }
        self = .fields(fields)
    }

    /// Whether `stored` may answer a request with `requestHeaders` as far as `Vary` goes.
    /// - Parameters:
    ///   - stored: A stored response.
    ///   - requestHeaders: The new request's header fields.
    /// - Returns: `true` when every nominated field matches; never for `Vary: *`.
    static func matches(_ stored: StoredResponse, requestHeaders: HTTPHeaders) -> Bool {
        switch stored.varyKey {
        case .never: false
        case .fields(let fields):
            fields.allSatisfy { name, value in normalisedValue(of: name, in: requestHeaders) == value }
        }
    }

    /// The lowercased field names of every `Vary` line, without duplicates.
    /// - Parameter responseHeaders: The response's header fields.
    /// - Returns: The names; `*` among them for `Vary: *`.
    static func nominatedFields(_ responseHeaders: HTTPHeaders) -> Set<String> {
        Set(responseHeaders.listElements(for: "Vary").map { $0.lowercased() })
    }

    /// A field's lines combined with `", "`, whitespace around every comma trimmed; `nil` when absent.
    private static func normalisedValue(of name: String, in headers: HTTPHeaders) -> String? {
        let lines = headers.values(for: name)
        guard !lines.isEmpty else { return nil }
        // One line already in normal form (`Accept-Encoding: gzip, deflate`) is its own value: splitting and joining
        // it again was most of a lookup's time (`cached-sequential`, "The HTTP cache" in Benchmarks/README.md).
        if lines.count == 1, isNormalised(lines[0]) { return lines[0] }
        return normalised(lines)
    }

    /// Lines combined with `", "`, whitespace around every comma trimmed.
    static func normalised(_ lines: [String]) -> String {
        lines.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map(\.trimmingOWS)
            .joined(separator: ", ")
    }

    /// Whether a line is what ``normalised(_:)`` would make of it: no whitespace at its ends, and each comma
    /// right after an element and followed by exactly one space and then an element.
    static func isNormalised(_ line: String) -> Bool {
        var beforePrevious: UInt8?
        var previous: UInt8?
        for byte in line.utf8 {
            let isWhitespace = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
            switch previous {
            case nil where isWhitespace: return false
            case UInt8(ascii: ","): if byte != UInt8(ascii: " ") { return false }
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                if byte == UInt8(ascii: ",") || (beforePrevious == UInt8(ascii: ",") && isWhitespace) { return false }
            default: break
            }
            if byte == UInt8(ascii: ","), previous == nil { return false }
            beforePrevious = previous
            previous = byte
        }
        guard let previous else { return true }
        return previous != UInt8(ascii: ",") && previous != UInt8(ascii: " ") && previous != UInt8(ascii: "\t")
    }
}
