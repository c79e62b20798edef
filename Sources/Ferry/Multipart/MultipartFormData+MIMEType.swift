extension MultipartFormData {
    /// The media type for a file extension, from a small built-in table; `application/octet-stream` when unknown.
    static func mimeType(forPathExtension pathExtension: String) -> String {
        mimeTypes[pathExtension.lowercased()] ?? "application/octet-stream"
    }

    private static let mimeTypes: [String: String] = [
        "json": "application/json",
        "txt": "text/plain",
        "html": "text/html",
        "htm": "text/html",
        "csv": "text/csv",
        "xml": "application/xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "pdf": "application/pdf",
        "zip": "application/zip",
        "gz": "application/gzip",
        "mp4": "video/mp4",
        "mp3": "audio/mpeg",
        "wav": "audio/wav",
        "bin": "application/octet-stream",
    ]
}
