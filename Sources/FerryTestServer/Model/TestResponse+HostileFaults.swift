import Foundation

extension TestResponse.Fault {
    /// A head with one `Content-Length` field per element of `lengths` (each sent as it is, valid or not), then
    /// `body` and a close: the framing faults a client must refuse rather than read to the close.
    /// - Parameters:
    ///   - lengths: the values of the `Content-Length` fields, in order.
    ///   - body: the bytes sent after the head.
    /// - Returns: the fault.
    public static func contentLengths(_ lengths: [String], body: Data = Data("truncated".utf8)) -> Self {
        let head = ResponseHead.render(
            status: 200, headers: [("Content-Type", "text/plain")] + lengths.map { ("Content-Length", $0) })
        return Self(sending: head + body, then: .close)
    }

    /// A chunked response `hello` whose last chunk carries the trailer field `X-A: 1`, then a close.
    public static let trailer = Self(
        sending: ResponseHead.render(
            status: 200, headers: [("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")])
            + Data("5\r\nhello\r\n0\r\nX-A: 1\r\n\r\n".utf8),
        then: .close
    )

    /// `HTTP/1.1 100 Continue` and its empty line, again and again, until the peer leaves or the server shuts down:
    /// a final response never comes.
    public static let continueStorm = Self(sending: Data("HTTP/1.1 100 Continue\r\n\r\n".utf8), then: .repeatBytes)
}
