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
/// Or by method and path, failing clearly on any other request, with a ``RequestRecorder`` to check what was sent:
///
/// ```swift
/// let recorder = RequestRecorder()
/// let transport = InMemoryTransport(recorder: recorder, routes: [
///     .get("/users/:id", .json(#"{"id":1}"#)),
///     .post("/users", .status(201).delayed(by: .milliseconds(50))),
///     .get("/flaky", .failure(.connectionReset)),
/// ])
/// ```
/// Each instance has its own handler, so tests running in parallel never share stubs.
public struct InMemoryTransport: Transport {
    /// Answers one request.
    public typealias Handler = @Sendable (Request) async throws -> StubResponse

    private enum Responder: Sendable {
        case waiting(Handler)
        case immediate(@Sendable (Request) throws -> StubResponse)
        case routes([Route])
    }

    private let responder: Responder
    private let recorder: RequestRecorder?

    /// Creates a transport whose handler may wait (to simulate a slow or silent server).
    ///
    /// The handler runs in a child task of the request's, so that a timeout or a cancellation stops it while it
    /// waits.
    /// - Parameters:
    ///   - recorder: Records every request, when given.
    ///   - handler: Answers each request; throwing fails the request (a `URLError` or ``/Ferry/FerryError``
    ///     is mapped as a real transport's would be).
    public init(recorder: RequestRecorder? = nil, _ handler: @escaping Handler) {
        responder = .waiting(handler)
        self.recorder = recorder
    }

    /// Creates a transport whose handler answers at once.
    ///
    /// The handler runs in the request's own task, with no child task: the cheapest way to stub, and what Ferry's
    /// pipeline benchmarks use.
    /// - Parameters:
    ///   - recorder: Records every request, when given.
    ///   - respond: Answers each request; throwing fails the request as with ``init(recorder:_:)``.
    public init(
        recorder: RequestRecorder? = nil, responding respond: @escaping @Sendable (Request) throws -> StubResponse
    ) {
        responder = .immediate(respond)
        self.recorder = recorder
    }

    /// Creates a transport that answers by method and path.
    ///
    /// The first route that matches answers. A request no route matches fails with
    /// ``/Ferry/FerryError/Reason/invalidRequest(_:)``, whose message names the request and lists the routes, and is
    /// kept in the recorder's ``RequestRecorder/unexpectedRequests``.
    /// - Parameters:
    ///   - recorder: Records every request, when given.
    ///   - routes: The routes, in the order they are tried.
    public init(recorder: RequestRecorder? = nil, routes: [Route]) {
        responder = .routes(routes)
        self.recorder = recorder
    }

    /// Answers `request` with the handler's response; the body is handed out chunk by chunk as it is read.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: Where upload progress goes, and how Ferry stops the request (a handler that waits, e.g. to
    ///     simulate a slow server, is stopped by a timeout or a cancellation).
    /// - Returns: The stub's head and body.
    /// - Throws: What the handler throws, the stub's ``StubFailure``, or ``/Ferry/FerryError`` when stopped.
    public func send(_ request: Request, context: TransportContext) async throws -> TransportResponse {
        // A handler that answers at once is answered without an async call: this transport's own frames are part of
        // what Benchmarks/ counts per in-memory request (README, "The request's async frames").
        let answer: StubResponse
        if case .immediate(let handler) = responder {
            answer = try immediateAnswer(handler, to: request, context: context)
        } else {
            answer = try await stub(for: request, context: context)
        }
        guard answer.delay > .zero, answer.webSocketServer == nil else {
            return try response(with: answer, to: request, context: context)
        }
        try await context.stoppable { try await Task.sleep(for: answer.delay) }
        return try response(with: answer, to: request, context: context)
    }

    /// The answer of a handler that responds at once, recorded; refused when Ferry already stopped the request.
    private func immediateAnswer(
        _ handler: @Sendable (Request) throws -> StubResponse, to request: Request, context: TransportContext?
    ) throws -> StubResponse {
        recorder?.record(request)
        if let error = context?.stopError { throw error }
        return try handler(request)
    }

    /// The handler's or the route's answer to `request`, recorded; run through `context` when there is one (an HTTP
    /// request), in the caller's task otherwise (a WebSocket upgrade).
    private func stub(for request: Request, context: TransportContext?) async throws -> StubResponse {
        switch responder {
        case .waiting(let handler):
            recorder?.record(request)
            guard let context else { return try await handler(request) }
            return try await context.stoppable { try await handler(request) }
        case .immediate(let handler):
            return try immediateAnswer(handler, to: request, context: context)
        case .routes(let routes):
            guard let route = routes.first(where: { $0.matches(request) }) else {
                recorder?.record(request, expected: false)
                let known = routes.map(\.summary).joined(separator: ", ")
                throw FerryError(
                    .invalidRequest(
                        "InMemoryTransport has no route for \(request.method.rawValue) \(request.url.path)"
                            + (routes.isEmpty ? "" : " (routes: \(known))")),
                    request: request)
            }
            recorder?.record(request)
            guard let context else { return try await route.respond(request) }
            return try await context.stoppable { try await route.respond(request) }
        }
    }

    /// The head and body of `answer`, after its delay.
    private func response(
        with answer: StubResponse, to request: Request, context: TransportContext
    ) throws -> TransportResponse {
        let stub = answer.webSocketServer == nil ? answer : Self.upgradeRequired(request)
        if let failure = stub.failure, stub.chunks.isEmpty { throw failure.error }
        var headers = stub.headers
        let length = stub.chunks.reduce(0) { $0 + $1.count }
        if !headers.contains("Content-Length") && request.method != .head && stub.failure == nil {
            headers.add(name: "Content-Length", value: String(length))
        }
        if let sent = request.body?.count, sent > 0 { context.noteSent(totalBytesSent: sent, expected: sent) }
        let head = HTTPResponse(
            statusCode: stub.statusCode, headers: headers, url: request.url, httpVersion: "HTTP/1.1")
        if request.method == .head { return TransportResponse(head: head, body: .empty) }
        guard stub.chunkInterval > .zero || stub.failure != nil else {
            return TransportResponse(head: head, body: .chunks(stub.chunks))
        }
        return TransportResponse(head: head, body: ResponseBody(StubBodySource(stub, context: context)))
    }
}

extension InMemoryTransport: WebSocketProviding {
    /// The answer of a WebSocket endpoint to a request that is not an upgrade.
    fileprivate static func upgradeRequired(_ request: Request) -> StubResponse {
        var stub = StubResponse.text(
            "InMemoryTransport: \(request.url.path) answers WebSocket upgrades only", statusCode: 426)
        stub.headers.add(name: "Upgrade", value: "websocket")
        return stub
    }

    /// Answers a WebSocket upgrade as an HTTP request is answered (recorded, by the handler or the routes): a
    /// ``StubResponse/webSocket(_:)`` answer accepts it and runs its ``InMemoryWebSocketServer``; any other answer
    /// refuses it with its status, headers and body (``/Ferry/FerryError/Reason/unacceptableStatus(_:)``), or fails
    /// with its ``StubFailure``.
    package func openWebSocket(
        _ request: Request, options: WebSocketOptions, inbox: WebSocketInbox
    ) async throws -> WebSocketOpen {
        let stub = try await stub(for: request, context: nil)
        if stub.delay > .zero { try await Task.sleep(for: stub.delay) }
        if let server = stub.webSocketServer { return server.accept(request, options: options, inbox: inbox) }
        if let failure = stub.failure, stub.chunks.isEmpty { throw failure.error }
        let head = HTTPResponse(
            statusCode: stub.statusCode, headers: stub.headers, url: WebSocketHandshake.webSocketURL(request.url),
            httpVersion: "HTTP/1.1")
        throw FerryError(
            .unacceptableStatus(stub.statusCode), request: request, response: head,
            body: stub.chunks.reduce(into: Data()) { $0.append($1) })
    }
}
