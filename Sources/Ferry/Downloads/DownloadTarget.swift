import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a download ends up, and how it gets there: a file Ferry owns while the body arrives, then one atomic
/// rename (or hard link, when an existing file must not be replaced) onto the destination.
struct DownloadTarget: Sendable {
    enum Destination: Sendable {
        /// This exact file.
        case file(URL)
        /// A file in this directory named by the server (`Content-Disposition`) or the URL, sanitized.
        case directory(URL)
    }

    var destination: Destination
    var options: DownloadOptions

    /// The final file for a response.
    /// - Throws: ``FerryError/Reason/fileSystemFailed(_:)`` when a suggested name would leave the directory.
    func resolve(for head: HTTPResponse) throws(FerryError) -> URL {
        switch destination {
        case .file(let url):
            return url
        case .directory(let directory):
            let name = head.suggestedFilename
            let file = directory.appending(path: name, directoryHint: .notDirectory).standardizedFileURL
            guard file.deletingLastPathComponent().path == directory.standardizedFileURL.path else {
                throw FerryError(.fileSystemFailed("the suggested file name \"\(name)\" leaves \(directory.path)"))
            }
            return file
        }
    }

    /// Moves the finished temporary file onto `destination`; the destination never holds a partial file.
    /// - Throws: ``FerryError/Reason/destinationExists(_:)`` or ``FerryError/Reason/fileSystemFailed(_:)``.
    func place(_ temporary: URL, at destination: URL) throws(FerryError) {
        let manager = FileManager.default
        let directory = destination.deletingLastPathComponent()
        do {
            if options.createsIntermediateDirectories {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            }
        } catch {
            throw FerryError(.fileSystemFailed("cannot create \(directory.path)"), underlyingError: error)
        }
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: destination.path, isDirectory: &isDirectory),
            isDirectory.boolValue || !options.replacesExistingFile
        {
            throw FerryError(.destinationExists(destination))
        }
        var source = temporary
        var staged: URL?
        // Across file systems neither rename nor link works: copy beside the destination first, then rename.
        if !Self.sameFileSystem(temporary, directory) {
            let beside = directory.appending(path: ".ferry-\(UUID().uuidString).partial")
            do {
                try manager.copyItem(at: temporary, to: beside)
            } catch {
                try? manager.removeItem(at: beside)
                throw FerryError(
                    .fileSystemFailed("cannot copy the download into \(directory.path)"), underlyingError: error)
            }
            source = beside
            staged = beside
        }
        defer { if let staged { try? manager.removeItem(at: staged) } }
        if options.replacesExistingFile {
            guard rename(source.path, destination.path) == 0 else { throw Self.systemError("rename", destination) }
        } else {
            // link(2) fails with EEXIST instead of replacing: no window in which another file could be clobbered.
            guard link(source.path, destination.path) == 0 else {
                if errno == EEXIST { throw FerryError(.destinationExists(destination)) }
                throw Self.systemError("link", destination)
            }
            unlink(source.path)
        }
        try? manager.removeItem(at: temporary)
    }

    private static func sameFileSystem(_ a: URL, _ b: URL) -> Bool {
        var first = stat()
        var second = stat()
        guard stat(a.path, &first) == 0, stat(b.path, &second) == 0 else { return false }
        return first.st_dev == second.st_dev
    }

    private static func systemError(_ call: String, _ destination: URL) -> FerryError {
        let code = errno
        return FerryError(
            .fileSystemFailed("\(call) onto \(destination.path) failed: \(String(cString: strerror(code)))"),
            underlyingError: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }

    /// A new temporary file name for a download's body.
    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "ferry-download-\(UUID().uuidString).partial")
    }
}
