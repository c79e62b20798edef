import Ferry
import Foundation

extension RequestBody {
    /// Every byte this body sends, read into memory: for assertions in tests.
    /// - Returns: The bytes of a data body, the contents of a file body, or the chunks of a stream body.
    /// - Throws: When the file cannot be read or the stream fails.
    public func bytes() async throws -> Data {
        switch content {
        case .data(let data):
            return data
        case .file(let url):
            return try Data(contentsOf: url)
        case .stream(let source, _):
            var data = Data()
            try await source.forEach { data.append($0) }
            return data
        }
    }
}
