import Ferry
import Foundation

/// The request body as the command line describes it: kept in this form so that `--curl` and `-v` can show it,
/// and turned into a ``RequestBody`` to send.
enum BodyPlan: Equatable, Sendable {
    /// One multipart part.
    enum Part: Equatable, Sendable {
        case text(name: String, value: String)
        case file(name: String, path: String)
    }

    case none
    /// A JSON object (or array) built from data items; the bytes to send.
    case json(Data)
    /// `name=value` pairs, urlencoded.
    case form([Pair])
    /// Multipart parts.
    case multipart([Part])
    /// `--raw text` or `--raw @-`: bytes with a content type.
    case data(Data, contentType: String)
    /// `--raw @path`: a file sent as it is read.
    case file(path: String, contentType: String)

    /// A form pair (tuples are not `Equatable`).
    struct Pair: Equatable, Sendable {
        var name: String
        var value: String
    }

    /// Whether there is a body.
    var isEmpty: Bool { self == .none }

    /// The body Ferry sends.
    /// - Parameter boundary: The multipart boundary (fixed in tests).
    func requestBody(boundary: String? = nil) -> RequestBody? {
        switch self {
        case .none:
            return nil
        case .json(let data):
            return .data(data, contentType: "application/json")
        case .form(let pairs):
            return .form(pairs.map { (name: $0.name, value: $0.value) })
        case .multipart(let parts):
            var form = boundary.map { MultipartFormData(boundary: $0) } ?? MultipartFormData()
            for part in parts {
                switch part {
                case .text(let name, let value): form.append(value, name: name)
                case .file(let name, let path): form.append(fileAt: URL(fileURLWithPath: path), name: name)
                }
            }
            return .multipart(form)
        case .data(let data, let contentType):
            return .data(data, contentType: contentType)
        case .file(let path, let contentType):
            return .file(URL(fileURLWithPath: path), contentType: contentType)
        }
    }
}
