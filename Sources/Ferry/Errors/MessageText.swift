import Foundation

/// Text made printable on one line for error messages: UTF-8 bodies and free-form strings with runs of white space
/// folded into one space and control characters escaped (`\u{1B}`), cut at ``characterLimit`` characters with `…`.
enum MessageText {
    /// The most characters a body preview, or another piece of free-form text, shows.
    static let characterLimit = 200

    /// The preview of `prefix`, the first bytes of a body, or `nil` when it is empty. A body that is not text
    /// (invalid UTF-8, or a NUL byte) reads `(N bytes of binary data)`, with the whole body's length when known.
    /// - Parameters:
    ///   - prefix: The bytes that were kept.
    ///   - isComplete: Whether `prefix` is the whole body; when it is not, the preview ends with `…`.
    ///   - totalLength: The whole body's length, when known, for a binary body's size.
    static func bodyPreview(of prefix: Data, isComplete: Bool, totalLength: Int64?) -> String? {
        guard !prefix.isEmpty else { return nil }
        guard let text = decodeText(prefix, isComplete: isComplete) else {
            if let totalLength, totalLength >= prefix.count { return "(\(byteCount(totalLength)) of binary data)" }
            let count = byteCount(Int64(prefix.count))
            return isComplete ? "(\(count) of binary data)" : "(more than \(count) of binary data)"
        }
        let line = oneLine(text, isComplete: isComplete)
        return line.isEmpty ? "(\(byteCount(Int64(prefix.count))) of white space)" : line
    }

    /// `text` on one line: white space folded and trimmed, control characters escaped, at most ``characterLimit``
    /// characters, then `…` when something was left out.
    /// - Parameters:
    ///   - text: The text.
    ///   - isComplete: Whether `text` is all there is; when it is not, the line ends with `…`.
    static func oneLine(_ text: String, isComplete: Bool = true) -> String {
        var line = ""
        var count = 0
        var pendingSpace = false
        var truncated = !isComplete
        for character in text {
            if character.isWhitespace {
                pendingSpace = count > 0
                continue
            }
            let piece = (pendingSpace ? " " : "") + escaped(character)
            guard count + piece.count <= characterLimit else {
                truncated = true
                break
            }
            line += piece
            count += piece.count
            pendingSpace = false
        }
        return truncated && !line.isEmpty ? line + "…" : line
    }

    /// An exact byte count: `"1 byte"`, `"5000 bytes"`.
    private static func byteCount(_ count: Int64) -> String {
        count == 1 ? "1 byte" : "\(count) bytes"
    }

    /// `text` as a sentence: its first letter in upper case, and a full stop unless it already ends with one.
    static func sentence(_ text: String) -> String {
        var sentence = text.prefix(1).uppercased() + text.dropFirst()
        if let last = sentence.last, !".…!?".contains(last) { sentence += "." }
        return sentence
    }

    /// `text` with its first letter in lower case (`"Expected to decode…"` → `"expected to decode…"`), unless it
    /// starts an acronym (`"HTTP…"`).
    static func lowercasingFirst(_ text: String) -> String {
        guard text.dropFirst().first?.isUppercase != true else { return text }
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// `data` as UTF-8 text, or `nil` when it is not text: invalid UTF-8 (other than a character cut at the end of
    /// an incomplete prefix) or a NUL byte.
    private static func decodeText(_ data: Data, isComplete: Bool) -> String? {
        guard !data.contains(0) else { return nil }
        if let text = String(validating: data, as: UTF8.self) { return text }
        guard !isComplete else { return nil }
        // A prefix may end inside a multi-byte character: drop up to three trailing bytes.
        for cut in 1...3 where data.count > cut {
            if let text = String(validating: data.dropLast(cut), as: UTF8.self) { return text }
        }
        return nil
    }

    /// `character`, or its scalars escaped as `\u{…}` when it is a control character (C0, DEL, C1).
    private static func escaped(_ character: Character) -> String {
        guard character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return String(character)
        }
        return character.unicodeScalars.map { "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
    }
}
