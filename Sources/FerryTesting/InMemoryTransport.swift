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

    /// Answers `request` with the handler's response; the body is handed out chunk by chunk as it is read.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Where upload progress goes, and how Ferry stops the request (a handler that waits, e.g. to
    ///     simulate a slow server, is stopped by a timeout or a cancellation).
    /// - Returns: The stub's head and body.
    /// - Throws: What the handler throws, or ``FerryError`` when stopped.
    public func send(_ request: Request, context: TransportContext) async throws -> TransportResponse {
        let stub = try await context.stoppable { [handler] in try await handler(request) }
        var headers = stub.headers
        let length = stub.chunks.reduce(0) { $0 + $1.count }
        if !headers.contains("Content-Length") && request.method != .head {
            headers.add(name: "Content-Length", value: String(length))
        }
        if let sent = request.body?.count, sent > 0 { context.noteSent(totalBytesSent: sent, expected: sent) }
        let head = HTTPResponse(
            statusCode: stub.statusCode, headers: headers, url: request.url, httpVersion: "HTTP/1.1")
        return TransportResponse(head: head, body: request.method == .head ? .empty : .chunks(stub.chunks))
    }
}
