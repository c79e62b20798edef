import Foundation

/// A fresh directory for one test, deleted at the end.
struct TemporaryDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "ferry-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appending(path: name) }

    /// The names in the directory, hidden ones included.
    var contents: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Ferry's own temporary files of one kind in the system temporary directory: `ferry-download-` (partial
/// downloads), `ferry-stream-` (stream spill files) or `ferry-upload-` (spooled upload streams).
func ferryTemporaryFiles(_ prefix: String) -> Set<String> {
    let names =
        (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
    return Set(names.filter { $0.hasPrefix(prefix) })
}
