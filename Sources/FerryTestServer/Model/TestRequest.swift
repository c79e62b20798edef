import Foundation

/// A request as the server read it off the wire.
///
/// Handlers receive one; ``TestServer/receivedRequests`` keeps the most recent ones so a test can check exactly
/// what a client sent.
public struct TestRequest: Sendable {
    /// The method, exactly as sent (`GET`, `POST`, …).
    public var method: String
    /// The request target as sent: path and query, such as `/get?a=1`.
    public var target: String
    /// The path part of ``target``, still percent-encoded, such as `/get`.
    public var path: String
    /// The query items, in order, percent-decoded (`+` as a space). Repeated names appear once each.
    public var queryItems: [(name: String, value: String)]
    /// The header fields, in the order they were sent, names as spelled by the client.
    public var headers: [(name: String, value: String)]
    /// The body, after undoing chunked transfer coding. Empty for ``TestServer``'s `/upload`, which only counts.
    public var body: Data
    /// The protocol version from the request line, such as `HTTP/1.1`.
    public var httpVersion: String

    /// The size and checksum of a body the server streamed instead of keeping (for `/upload`).
    var streamedBody: StreamedBody?

    /// Creates a request, splitting `target` into path and query items.
    /// - Parameters:
    ///   - method: the method, such as `GET`.
    ///   - target: the path and query, such as `/get?a=1`.
    ///   - headers: the header fields, in order.
    ///   - body: the body.
    ///   - httpVersion: the protocol version, such as `HTTP/1.1`.
    public init(
        method: String = "GET",
        target: String,
        headers: [(name: String, value: String)] = [],
        body: Data = Data(),
        httpVersion: String = "HTTP/1.1"
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.httpVersion = httpVersion
        var origin = Substring(target)
        if !origin.hasPrefix("/"), let scheme = origin.range(of: "://") {
            let afterAuthority = origin[scheme.upperBound...]
            origin = afterAuthority.firstIndex(of: "/").map { afterAuthority[$0...] } ?? "/"
        }
        if let hash = origin.firstIndex(of: "#") { origin = origin[..<hash] }
        if let question = origin.firstIndex(of: "?") {
            self.path = String(origin[..<question])
            self.queryItems = PercentDecoding.pairs(origin[origin.index(after: question)...])
        } else {
            self.path = String(origin)
            self.queryItems = []
        }
    }

    /// The first value of a header field.
    /// - Parameter name: the field name, compared case-insensitively.
    /// - Returns: the value, or `nil` when the field is absent.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of a header field, in order.
    /// - Parameter name: the field name, compared case-insensitively.
    /// - Returns: the values; empty when the field is absent.
    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// The value of a query item; when the name repeats, the last one wins.
    /// - Parameter name: the item name, compared exactly.
    /// - Returns: the decoded value, or `nil` when absent.
    public func query(_ name: String) -> String? {
        queryItems.last { $0.name == name }?.value
    }
}

/// What the server kept of a body it did not buffer.
struct StreamedBody: Sendable, Hashable {
    /// How many body bytes arrived.
    var byteCount: Int
    /// ``TestServer/checksum(of:)`` of those bytes.
    var checksum: String
}
