import Foundation

/// The head of an HTTP response: status, headers and the URL it came from.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, e.g. `200`.
    public var statusCode: Int
    /// The header fields.
    public var headers: HTTPHeaders
    /// The URL that answered (after redirects, the last one).
    public var url: URL
    /// The HTTP version, e.g. `"HTTP/1.1"`, when the transport reports it.
    public var httpVersion: String?

    /// Creates a response head.
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - headers: The header fields.
    ///   - url: The URL that answered.
    ///   - httpVersion: The HTTP version, when known.
    public init(statusCode: Int, headers: HTTPHeaders = [:], url: URL, httpVersion: String? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        self.httpVersion = httpVersion
    }

    /// Whether the status is in `200..<300`.
    public var isSuccessful: Bool { (200..<300).contains(statusCode) }

    /// The `Content-Type` header, if any.
    public var contentType: String? { headers["Content-Type"] }

    /// The media type of the `Content-Type` header, lowercased and without parameters (`"application/json"`).
    public var mimeType: String? { contentType.map { MediaType(parsing: $0).essence } }

    /// The file name the server suggests, made safe to use inside a directory of your choosing: the
    /// `Content-Disposition` header's `filename*` (UTF-8) or `filename`, else the URL's last path component, reduced
    /// to one plain path component (no directories, `.`/`..`, control characters or leading dot, at most 255 UTF-8
    /// bytes); `download` when nothing usable is left. What ``DownloadTask`` names a file downloaded into a directory.
    public var suggestedFilename: String {
        SuggestedFileName.sanitized(
            SuggestedFileName.fromContentDisposition(headers["Content-Disposition"]) ?? url.lastPathComponent)
    }

    /// The `Content-Length` header, when present and valid: one length, or the same length repeated (`10, 10`).
    /// `nil` when it is absent, and also when it is invalid or conflicting, which ``hasInvalidContentLength`` tells
    /// apart.
    public var expectedContentLength: Int64? {
        guard case .length(let length) = contentLengthDeclaration else { return nil }
        return length
    }

    /// Whether a `Content-Length` is present but is not one non-negative length: unparsable
    /// (`99999999999999999999999`), negative, or conflicting (two fields `10` and `4`, or one field `10, 4`).
    ///
    /// RFC 9112 §6.3 makes such a response's framing an unrecoverable error; Ferry fails the request with
    /// ``FerryError/TransportFailure/invalidResponse`` before reading its body, on every transport.
    public var hasInvalidContentLength: Bool { contentLengthDeclaration == .invalid }

    /// Whether this response may have an empty body for `method`: `HEAD`, 1xx, 204, 205 and 304.
    /// - Parameter method: The method of the request that was answered.
    public func permitsEmptyBody(for method: HTTPMethod) -> Bool {
        method == .head || (100..<200).contains(statusCode) || [204, 205, 304].contains(statusCode)
    }
}
