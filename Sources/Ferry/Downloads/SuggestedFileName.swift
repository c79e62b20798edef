import Foundation

/// File names a server suggests, made safe to use inside a directory of the caller's choosing.
enum SuggestedFileName {
    /// The `filename*` (RFC 5987/6266, UTF-8) or `filename` parameter of a `Content-Disposition` value.
    static func fromContentDisposition(_ value: String?) -> String? {
        guard let value else { return nil }
        var plain: String?
        for parameter in value.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            let name = parts[0].lowercased()
            var raw = parts[1]
            if name == "filename*" {
                // charset'language'percent-encoded
                let pieces = raw.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if pieces.count == 3, pieces[0].lowercased() == "utf-8",
                    let decoded = String(pieces[2]).removingPercentEncoding
                {
                    return decoded
                }
            } else if name == "filename" {
                if raw.hasPrefix("\""), raw.hasSuffix("\""), raw.count >= 2 {
                    raw = String(raw.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
                }
                plain = raw
            }
        }
        return plain
    }

    /// A name that is one plain path component: no directories, no `.`/`..`, no control characters, no leading
    /// dot (no hidden files), at most 255 UTF-8 bytes; `download` when nothing usable is left.
    ///
    /// Separators and dots are found by Unicode scalar, not by `Character`: a combining mark after `/` or `.` makes
    /// one grapheme of the two, which must neither hide a separator nor a leading dot.
    static func sanitized(_ suggested: String) -> String {
        let lastComponent = suggested.unicodeScalars.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? []
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: lastComponent.filter { !CharacterSet.controlCharacters.contains($0) })
        var name = String(scalars).trimmingCharacters(in: .whitespaces)
        while name.unicodeScalars.first == "." { name.unicodeScalars.removeFirst() }
        while name.utf8.count > 255 { name.removeLast() }
        return name.isEmpty ? "download" : name
    }
}
