import Foundation

/// What a handler answers: a status, header fields and a ``Body`` that can also pace, stream or break the exchange.
///
/// The server adds `Content-Length` or `Transfer-Encoding: chunked` (unless the handler set either), `Date`, and
/// `Connection: close` when it is about to close; every field set here is sent as given, which lets a test send
/// deliberately wrong framing.
public struct TestResponse: Sendable {
    /// The status code, such as `200`.
    public var status: Int
    /// The header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body and how it is delivered.
    public var body: Body
    /// How long the server waits before sending anything; shutdown cuts the wait short.
    public var delay: Duration

    /// Creates a response.
    /// - Parameters:
    ///   - status: the status code.
    ///   - headers: the header fields, in order.
    ///   - body: the body.
    ///   - delay: how long to wait before sending the head.
    public init(
        status: Int = 200,
        headers: [(name: String, value: String)] = [],
        body: Body = .empty,
        delay: Duration = .zero
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    /// The first value of a header field.
    /// - Parameter name: the field name, compared case-insensitively.
    /// - Returns: the value, or `nil` when absent.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// A copy with one more header field.
    /// - Parameters:
    ///   - name: the field name.
    ///   - value: the field value.
    /// - Returns: the response with the field appended.
    public func adding(header name: String, value: String) -> TestResponse {
        var copy = self
        copy.headers.append((name, value))
        return copy
    }

    /// A copy that waits before answering.
    /// - Parameter delay: how long to wait before sending the head.
    /// - Returns: the delayed response.
    public func delayed(by delay: Duration) -> TestResponse {
        var copy = self
        copy.delay = delay
        return copy
    }
}

extension TestResponse {
    /// Whether a response with `status` never has a body (RFC 9110 §6.4.1).
    static func isBodiless(_ status: Int) -> Bool {
        (100..<200).contains(status) || status == 204 || status == 304
    }
}
