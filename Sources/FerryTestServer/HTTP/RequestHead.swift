import Foundation

/// The request line and header fields of one request.
struct RequestHead: Sendable {
    var method: String
    var target: String
    var majorVersion: Int
    var minorVersion: Int
    var headers: [(name: String, value: String)]

    /// The version as written on the wire, such as `HTTP/1.1`.
    var version: String { "HTTP/\(majorVersion).\(minorVersion)" }

    /// The first value of a field, compared case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Whether the client wants the connection kept open after this exchange.
    var wantsKeepAlive: Bool {
        let tokens = headers.filter { $0.name.caseInsensitiveCompare("Connection") == .orderedSame }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if tokens.contains("close") { return false }
        return minorVersion >= 1 || tokens.contains("keep-alive")
    }

    /// Whether the client sent `Expect: 100-continue`.
    var expectsContinue: Bool {
        header("Expect")?.trimmingCharacters(in: .whitespaces).lowercased() == "100-continue"
    }

    /// How the request body is delimited.
    /// - Throws: `ConnectionError` for a malformed `Content-Length` or an unsupported transfer coding.
    func bodyFraming() throws(ConnectionError) -> BodyFraming {
        let codings = headers.filter { $0.name.caseInsensitiveCompare("Transfer-Encoding") == .orderedSame }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !codings.isEmpty {
            guard codings.last == "chunked" else { throw .unsupportedTransferCoding }
            return .chunked
        }
        let lengths = headers.filter { $0.name.caseInsensitiveCompare("Content-Length") == .orderedSame }
            .flatMap { $0.value.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = lengths.first else { return .none }
        guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let length = Int(first)
        else { throw .badRequest("invalid Content-Length") }
        return length == 0 ? .none : .length(length)
    }
}

/// How a message body is delimited on the wire.
enum BodyFraming: Equatable {
    case none
    case length(Int)
    case chunked

    var hasBody: Bool { self != .none }
}
