import Ferry
import Foundation

/// A canned response for ``InMemoryTransport``.
public struct StubResponse: Sendable {
    /// The status code.
    public var statusCode: Int
    /// The headers. `Content-Length` is added when missing.
    public var headers: HTTPHeaders
    /// The body, as the chunks it is delivered in.
    public var chunks: [Data]
    /// How long the head takes to arrive; none by default (``delayed(by:)``).
    public var delay: Duration = .zero
    /// The pause before each chunk after the first; none by default (``streamed(_:interval:statusCode:headers:)``).
    public var chunkInterval: Duration = .zero
    /// A transport failure: before the head when there are no chunks (``failure(_:)``), else after the last
    /// chunk (``failing(with:)``).
    public var failure: StubFailure?
    /// The endpoint that accepts a WebSocket upgrade answered with this stub (``webSocket(_:)``).
    var webSocketServer: InMemoryWebSocketServer?

    /// Creates a response.
    /// - Parameters:
    ///   - statusCode: The status code; 200 by default.
    ///   - headers: The headers.
    ///   - body: The body.
    public init(statusCode: Int = 200, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.init(statusCode: statusCode, headers: headers, chunks: body.isEmpty ? [] : [body])
    }

    /// Creates a response whose body arrives in several chunks.
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - headers: The headers.
    ///   - chunks: The body, chunk by chunk.
    public init(statusCode: Int = 200, headers: HTTPHeaders = [:], chunks: [Data]) {
        self.statusCode = statusCode
        self.headers = headers
        self.chunks = chunks
    }

    /// An answer that accepts a WebSocket upgrade and hands the socket to `server`; a request that is not an upgrade
    /// gets `426 Upgrade Required`. Any other stub answering an upgrade refuses it, as a real server's would.
    /// - Parameter server: The endpoint.
    /// - Returns: The stub.
    public static func webSocket(_ server: InMemoryWebSocketServer) -> StubResponse {
        var stub = StubResponse(statusCode: 101)
        stub.webSocketServer = server
        return stub
    }

    /// A response with this status and no body.
    /// - Parameter code: The status code.
    /// - Returns: The response.
    public static func status(_ code: Int) -> StubResponse {
        StubResponse(statusCode: code)
    }

    /// A JSON response.
    /// - Parameters:
    ///   - text: The JSON text.
    ///   - statusCode: The status code; 200 by default.
    /// - Returns: The response, `application/json`.
    public static func json(_ text: String, statusCode: Int = 200) -> StubResponse {
        StubResponse(statusCode: statusCode, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    /// A JSON response encoding `value`.
    /// - Parameters:
    ///   - value: The value.
    ///   - statusCode: The status code; 200 by default.
    ///   - encoder: The encoder.
    /// - Returns: The response, `application/json`.
    /// - Throws: The encoder's error.
    public static func json<Value: Encodable>(
        encoding value: Value, statusCode: Int = 200, encoder: JSONEncoder = JSONEncoder()
    ) throws -> StubResponse {
        StubResponse(
            statusCode: statusCode, headers: ["Content-Type": "application/json"], body: try encoder.encode(value))
    }

    /// A text response.
    /// - Parameters:
    ///   - text: The text, sent as UTF-8.
    ///   - statusCode: The status code; 200 by default.
    /// - Returns: The response, `text/plain; charset=utf-8`.
    public static func text(_ text: String, statusCode: Int = 200) -> StubResponse {
        StubResponse(
            statusCode: statusCode, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }
}
