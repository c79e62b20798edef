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

    /// The `Content-Length` header, when present and valid.
    public var expectedContentLength: Int64? {
        // Read from the ASCII bytes, spaces and tabs around the digits allowed: no String copy, and no Foundation trim
        // (which goes through NSString on Linux), on every response.
        guard let value = headers["Content-Length"] else { return nil }
        var length: Int64?
        var trailingSpace = false
        for byte in value.utf8 {
            switch byte {
            case 0x20, 0x09:
                if length != nil { trailingSpace = true }
            case 0x30...0x39 where !trailingSpace:
                let (times10, overflow1) = (length ?? 0).multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - 0x30))
                if overflow1 || overflow2 { return nil }
                length = sum
            default:
                return nil
            }
        }
        return length
    }

    /// Whether this response may have an empty body for `method`: `HEAD`, 1xx, 204, 205 and 304.
    /// - Parameter method: The method of the request that was answered.
    public func permitsEmptyBody(for method: HTTPMethod) -> Bool {
        method == .head || (100..<200).contains(statusCode) || [204, 205, 304].contains(statusCode)
    }
}
