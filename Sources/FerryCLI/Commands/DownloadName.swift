import Ferry
import Foundation

/// The file `ferry -d` saves to without `-o`: the name in `Content-Disposition`, else the URL's last path
/// component (`index` for `/`), with an extension from `Content-Type` when it has none, made one plain file name,
/// and `-1`, `-2`, … before the extension when the name is taken.
enum DownloadName {
    /// The name for a response, before checking what exists.
    static func suggested(for head: HTTPResponse) -> String {
        var name = fromContentDisposition(head.headers["Content-Disposition"]) ?? head.url.lastPathComponent
        name = String(name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? "")
        name = String(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
        while name.hasPrefix(".") { name.removeFirst() }
        if name.isEmpty { name = "index" }
        if !name.contains("."), let ext = fileExtension(for: head.mimeType) { name += "." + ext }
        return name
    }

    /// Moves a finished download to its name in `directory`, never replacing a file.
    /// - Returns: The file's new location.
    /// - Throws: When it cannot be moved.
    static func place(_ file: URL, for head: HTTPResponse, in directory: URL) throws -> URL {
        let name = suggested(for: head)
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        var candidate = directory.appendingPathComponent(name)
        var counter = 1
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = directory.appendingPathComponent("\(base)-\(counter)" + (ext.isEmpty ? "" : "." + ext))
            counter += 1
        }
        try FileManager.default.moveItem(at: file, to: candidate)
        return candidate
    }

    /// The `filename` parameter of a `Content-Disposition` value (quoted or not); `filename*` in UTF-8 first.
    static func fromContentDisposition(_ value: String?) -> String? {
        guard let value else { return nil }
        var plain: String?
        for parameter in value.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            switch parts[0].lowercased() {
            case "filename*":
                let pieces = parts[1].split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if pieces.count == 3, pieces[0].lowercased() == "utf-8",
                    let decoded = String(pieces[2]).removingPercentEncoding, !decoded.isEmpty
                {
                    return decoded
                }
            case "filename":
                var raw = parts[1]
                if raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") { raw = String(raw.dropFirst().dropLast()) }
                if !raw.isEmpty { plain = raw }
            default:
                continue
            }
        }
        return plain
    }

    private static func fileExtension(for mimeType: String?) -> String? {
        switch mimeType?.lowercased() {
        case "application/json": "json"
        case "text/html": "html"
        case "text/plain": "txt"
        case "text/css": "css"
        case "text/csv": "csv"
        case "application/xml", "text/xml": "xml"
        case "application/pdf": "pdf"
        case "image/png": "png"
        case "image/jpeg": "jpg"
        case "image/gif": "gif"
        case "application/zip": "zip"
        default: nil
        }
    }
}
