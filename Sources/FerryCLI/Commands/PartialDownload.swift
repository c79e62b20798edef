import Ferry
import Foundation

/// What `ferry -o FILE` leaves when a download breaks off: the bytes in `FILE.part` and, in `FILE.part.validator`,
/// the `ETag` or `Last-Modified` that names the version they belong to. `--continue` turns them back into Ferry's
/// ``ResumeData``, so a resumed download asks for the rest with `If-Range` and can never splice two versions.
struct PartialDownload {
    let destination: URL

    var partFile: URL { destination.appendingPathExtension("part") }
    var validatorFile: URL { partFile.appendingPathExtension("validator") }

    /// Keeps a failed download's partial file for `--continue`.
    /// - Returns: The bytes kept.
    /// - Throws: When the file cannot be moved or the validator written.
    func keep(_ resume: ResumeData) throws -> Int64 {
        let manager = FileManager.default
        if resume.partialFile.standardizedFileURL != partFile.standardizedFileURL {
            try? manager.removeItem(at: partFile)
            try manager.moveItem(at: resume.partialFile, to: partFile)
        }
        var lines: [String] = []
        if let tag = resume.entityTag { lines.append("ETag: \(tag)") }
        if let date = resume.lastModified { lines.append("Last-Modified: \(date)") }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: validatorFile)
        return resume.byteCount
    }

    /// The resume data for `request`, when a partial file and its validator are there.
    func resumeData(for request: Request) -> ResumeData? {
        let manager = FileManager.default
        guard let size = (try? manager.attributesOfItem(atPath: partFile.path)[.size] as? Int64) ?? nil, size > 0,
            let text = try? String(contentsOf: validatorFile, encoding: .utf8)
        else { return nil }
        var entityTag: String?
        var lastModified: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("ETag: ") { entityTag = String(line.dropFirst(6)) }
            if line.hasPrefix("Last-Modified: ") { lastModified = String(line.dropFirst(15)) }
        }
        guard entityTag != nil || lastModified != nil else { return nil }
        return ResumeData(
            request: request, partialFile: partFile, byteCount: size, entityTag: entityTag,
            lastModified: lastModified)
    }

    /// Removes what is left of an earlier attempt once the download is complete.
    func clean() {
        try? FileManager.default.removeItem(at: partFile)
        try? FileManager.default.removeItem(at: validatorFile)
    }
}
