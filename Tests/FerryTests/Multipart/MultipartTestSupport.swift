import Ferry
import Foundation
import Testing

/// A fresh directory for one test's files; call ``remove()`` when done.
struct MultipartTestFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("FerryMultipartTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `contents` to a file called `name` in the folder.
    func file(_ name: String, contents: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try contents.writeUnsynced(to: file)
        return file
    }

    /// The names of the files in the folder.
    func listing() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

enum MultipartFixtures {
    /// `count` bytes cycling through 0...250, so misplaced or repeated chunks change the bytes.
    static func pattern(count: Int) -> Data {
        var data = Data(count: count)
        data.withUnsafeMutableBytes { buffer in
            for index in buffer.indices { buffer[index] = UInt8(index % 251) }
        }
        return data
    }
}

extension EncodedMultipart {
    /// The encoded bytes, read from the file for a file encoding.
    func bytes() throws -> Data {
        switch self {
        case .data(let data): data
        case .file(let url, _): try Data(contentsOf: url)
        }
    }

    /// The in-memory bytes, or `nil` for a file encoding.
    var inMemory: Data? {
        if case .data(let data) = self { return data }
        return nil
    }
}

extension FerryError.Reason {
    /// The message of an ``invalidRequest(_:)`` reason, or `nil` for any other reason.
    var invalidRequestMessage: String? {
        if case .invalidRequest(let message) = self { return message }
        return nil
    }
}
