import Ferry
import Foundation

/// A transport that answers requests in memory, for tests: no sockets, no URLSession.
///
/// ```swift
/// let transport = InMemoryTransport { request in
///     request.url.path == "/user" ? .json(#"{"id":1}"#) : .status(404)
/// }
/// let session = Session(transport: transport)
/// ```
/// Each instance has its own handler, so tests running in parallel never share stubs.
public struct InMemoryTransport: Transport {
    /// Answers one request.
    public typealias Handler = @Sendable (Request) async throws -> StubResponse

    private let handler: Handler

    /// Creates a transport.
    /// - Parameter handler: Answers each request; throwing fails the request (a `URLError` or ``FerryError``
    ///   is mapped as a real transport's would be).
    public init(_ handler: @escaping Handler) {
        self.handler = handler
    }

    /// Answers `request` with the handler's response, delivering the body chunk by chunk.
    /// - Parameters:
    ///   - request: The request.
    ///   - sink: Where the response goes.
    /// - Returns: The body bytes "sent".
    /// - Throws: What the handler throws, or ``FerryError`` when cancelled or the sink refuses.
    public func send(_ request: Request, into sink: ResponseSink) async throws -> TransportReport {
        let stub = try await handler(request)
        try Task.checkCancellation()
        var headers = stub.headers
        let length = stub.chunks.reduce(0) { $0 + $1.count }
        if !headers.contains("Content-Length") && request.method != .head {
            headers.add(name: "Content-Length", value: String(length))
        }
        let sent = request.body?.count ?? 0
        if sent > 0 { sink.noteSent(totalBytesSent: sent, expected: sent) }
        try sink.receive(HTTPResponse(statusCode: stub.statusCode, headers: headers, url: request.url))
        if request.method != .head {
            for chunk in stub.chunks {
                try Task.checkCancellation()
                // `write` waits while a stream consumer is behind: this transport has real back-pressure.
                try await sink.write(chunk)
            }
        }
        return TransportReport(bytesSent: sent, httpVersion: "HTTP/1.1")
    }
}
