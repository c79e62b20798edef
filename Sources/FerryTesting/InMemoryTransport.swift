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

    private enum Responder: Sendable {
        case waiting(Handler)
        case immediate(@Sendable (Request) throws -> StubResponse)
    }

    private let responder: Responder

    /// Creates a transport whose handler may wait (to simulate a slow or silent server).
    ///
    /// The handler runs in a child task of the request's, so that a timeout or a cancellation stops it while it
    /// waits.
    /// - Parameter handler: Answers each request; throwing fails the request (a `URLError` or ``FerryError``
    ///   is mapped as a real transport's would be).
    public init(_ handler: @escaping Handler) {
        responder = .waiting(handler)
    }

    /// Creates a transport whose handler answers at once.
    ///
    /// The handler runs in the request's own task, with no child task: the cheapest way to stub, and what Ferry's
    /// pipeline benchmarks use.
    /// - Parameter respond: Answers each request; throwing fails the request as with ``init(_:)``.
    public init(responding respond: @escaping @Sendable (Request) throws -> StubResponse) {
        responder = .immediate(respond)
    }

    /// Answers `request` with the handler's response; the body is handed out chunk by chunk as it is read.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Where upload progress goes, and how Ferry stops the request (a handler that waits, e.g. to
    ///     simulate a slow server, is stopped by a timeout or a cancellation).
    /// - Returns: The stub's head and body.
    /// - Throws: What the handler throws, or ``FerryError`` when stopped.
    public func send(_ request: Request, context: TransportContext) async throws -> TransportResponse {
        let stub: StubResponse
        switch responder {
        case .waiting(let handler):
            stub = try await context.stoppable { try await handler(request) }
        case .immediate(let respond):
            if let error = context.stopError { throw error }
            stub = try respond(request)
        }
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
