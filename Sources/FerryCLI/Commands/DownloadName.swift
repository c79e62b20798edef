import Ferry
import Foundation

/// The file `ferry -d` saves to without `-o`: the name in `Content-Disposition`, else the URL's last path
/// component (`index` for `/`), with an extension from `Content-Type` when it has none, made one plain file name,
/// and `-1`, `-2`, … before the extension when the name is taken.
enum DownloadName {
    /// The name for a response, before checking what exists: the library's ``HTTPResponse/suggestedFilename``
    /// (`index` for a URL that names none), with an extension from `Content-Type` when it has none.
    static func suggested(for head: HTTPResponse) -> String {
        var name = head.suggestedFilename
        let fromURL = head.headers["Content-Disposition"] == nil
        if name == "download", fromURL, head.url.lastPathComponent == "/" || head.url.lastPathComponent.isEmpty {
            name = "index"
        }
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
