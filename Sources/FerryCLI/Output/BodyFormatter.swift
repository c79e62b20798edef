import Ferry
import Foundation

/// A response or request body for a person on a terminal: JSON pretty-printed (and coloured), text as it is,
/// binary data as a note instead of bytes that would garble the terminal.
enum BodyFormatter {
    /// The body as text to show.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - contentType: Its `Content-Type`, if any.
    ///   - stream: Where it goes (for colours).
    static func format(_ data: Data, contentType: String?, on stream: Console.Stream) -> String {
        if looksLikeJSON(data, contentType: contentType), let json = try? JSON(parsing: data) {
            return JSONHighlighter(stream: stream).render(json) + "\n"
        }
        if let text = String(validating: data, as: UTF8.self), !text.contains("\u{0}") {
            return text.hasSuffix("\n") ? text : text + "\n"
        }
        return stream.styled(
            "(\(Units.bytes(Int64(data.count))) of binary data not shown; use -o FILE or a pipe)", .dim) + "\n"
    }

    private static func looksLikeJSON(_ data: Data, contentType: String?) -> Bool {
        if let contentType, contentType.lowercased().contains("json") { return true }
        let first = data.first { !" \t\r\n".utf8.contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }
}
