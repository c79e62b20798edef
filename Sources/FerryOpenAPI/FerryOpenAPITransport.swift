#if OpenAPI
public import Ferry
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A swift-openapi-runtime `ClientTransport` that sends every operation through a Ferry ``Ferry/Session``, so a
/// generated client gets Ferry's transports, timeouts, redirects and interceptors:
///
/// ```swift
/// let client = Client(serverURL: try Servers.Server1.url(), transport: FerryOpenAPITransport(session))
/// ```
///
/// Response bodies stream: the `HTTPBody` an operation returns reads Ferry's chunks as they arrive, on every Ferry
/// transport (URLSession on Linux included), so server-sent events and JSON Lines decode as they come. Status codes
/// are not validated here: the generated client decides what each one means. Repeated header fields (two
/// `Set-Cookie`) stay two fields.
public struct FerryOpenAPITransport: ClientTransport {
    /// The session requests go through.
    public let session: Session
    /// How much of a response body is buffered ahead of the reader, and what happens beyond.
    public var streamOptions: StreamOptions
    /// Request bodies up to this size whose iteration behaviour is `.multiple` are collected in memory, so a retry
    /// or a 307/308 redirect can send them again; larger ones and `.single` ones are streamed and never replayed.
    public var replayableBodyLimit: Int

    /// Creates a transport.
    /// - Parameters:
    ///   - session: The session requests go through.
    ///   - streamOptions: How response bodies are buffered.
    ///   - replayableBodyLimit: The largest request body kept in memory for a resend; 1 MiB by default.
    public init(_ session: Session, streamOptions: StreamOptions = StreamOptions(), replayableBodyLimit: Int = 1 << 20)
    {
        self.session = session
        self.streamOptions = streamOptions
        self.replayableBodyLimit = replayableBodyLimit
    }

    /// Sends one operation's request and returns as soon as the response head arrived; the body streams.
    /// - Parameters:
    ///   - request: The request, its path relative to `baseURL`.
    ///   - body: The request body.
    ///   - baseURL: The server URL.
    ///   - operationID: The operation (unused).
    /// - Returns: The response head and, unless the request was `HEAD`, its streamed body.
    /// - Throws: ``Ferry/FerryError``: the request could not be made, or failed before a response arrived.
    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        let outbound = try Ferry.Request(request, body: try await requestBody(body), baseURL: baseURL)
        let task = session.stream(outbound, options: streamOptions).unvalidated()
        let head = try await task.head
        let response = try HTTPTypes.HTTPResponse(head)
        guard request.method != .head else {
            task.cancel()
            return (response, nil)
        }
        let decodedLength = head.headers.contains("Content-Encoding") ? nil : head.expectedContentLength
        let length: HTTPBody.Length = decodedLength.map { .known($0) } ?? .unknown
        return (response, HTTPBody(task.bytes, length: length, iterationBehavior: .single))
    }

    /// Ferry's body for an OpenAPI body: in memory when it is small and may be read again, else streamed.
    private func requestBody(_ body: HTTPBody?) async throws -> RequestBody? {
        guard let body else { return nil }
        let count: Int64? = if case .known(let count) = body.length { count } else { nil }
        // The operation's own Content-Type field is sent; Ferry adds none.
        if body.iterationBehavior == .multiple, let count, count <= Int64(replayableBodyLimit) {
            return .data(Data(try await ArraySlice(collecting: body, upTo: Int(count))), contentType: nil)
        }
        return .stream(HTTPBodyChunks(body: body), count: count, contentType: nil)
    }
}

/// An OpenAPI body as the `Data` chunks a Ferry ``Ferry/RequestBody/stream(_:count:contentType:)`` reads once.
struct HTTPBodyChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let body: HTTPBody

    func makeAsyncIterator() -> Iterator {
        Iterator(base: body.makeAsyncIterator())
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator

        mutating func next() async throws -> Data? {
            try await base.next().map { Data($0) }
        }
    }
}
#endif
