import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One tick of the ticker (`#/components/schemas/Tick` in `openapi.yaml`).
public struct Tick: Codable, Sendable, Hashable {
    /// The tick's position, from 0.
    public var index: Int

    /// Creates a tick.
    public init(index: Int) {
        self.index = index
    }
}

/// A client of `openapi.yaml`'s one operation, written by hand against swift-openapi-runtime's protocols the way
/// swift-openapi-generator's code uses them: any `ClientTransport` sends it, `FerryOpenAPITransport` included.
public struct TickerClient: Sendable {
    /// The server's URL.
    public let serverURL: URL
    /// What sends the requests.
    public let transport: any ClientTransport

    /// Creates a client.
    public init(serverURL: URL, transport: any ClientTransport) {
        self.serverURL = serverURL
        self.transport = transport
    }

    /// An error for a status the document does not describe.
    public struct UndocumentedStatus: Error, Equatable {
        /// The status code.
        public var code: Int
    }

    /// `GET /ticks?count=N` (`getTicks`): the ticks, decoded one server-sent event at a time as they arrive.
    public func ticks(count: Int) async throws -> some AsyncSequence<Tick, any Error> & Sendable {
        var request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/ticks?count=\(count)")
        request.headerFields[.accept] = "text/event-stream"
        let (response, body) = try await transport.send(
            request, body: nil, baseURL: serverURL, operationID: "getTicks")
        guard response.status == .ok, let body else { throw UndocumentedStatus(code: response.status.code) }
        return body.asDecodedServerSentEventsWithJSONData(of: Tick.self).compactMap(\.data)
    }
}
