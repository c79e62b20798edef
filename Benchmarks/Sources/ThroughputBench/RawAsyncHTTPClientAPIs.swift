import AsyncHTTPClient
import Ferry
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// AsyncHTTPClient's engine APIs side by side, without Ferry, for the small-request workloads: which API a client
/// built on the engine should use for in-memory bodies. `raw-ahc` is the async API awaited in the calling task;
/// these two are the alternatives a client that must stop a request from outside the awaiting task has.
final class RawAsyncHTTPClientAPI: HTTPBenchClient {
    enum API {
        /// `execute(request:delegate:)` with a delegate that collects the body (no task of the client's).
        case delegate
        /// The async API with the head awaited in a child task (`async let`), which a stop can cancel.
        case asyncInChildTask
    }

    private let api: API
    private let client: HTTPClient
    private let headers: NIOHTTP1.HTTPHeaders

    init(api: API, headers: Ferry.HTTPHeaders) {
        self.api = api
        client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClientTransport.defaultConfiguration)
        var fields = NIOHTTP1.HTTPHeaders()
        for header in headers { fields.add(name: header.name, value: header.value) }
        self.headers = fields
    }

    private func body(from url: URL) async throws -> ByteBuffer {
        switch api {
        case .delegate:
            let request = try HTTPClient.Request(url: url, method: .GET, headers: headers)
            let preference: HTTPClient.EventLoopPreference =
                ProcessInfo.processInfo.environment["AHC_PIN"] == "1"
                ? .delegateAndChannel(on: client.eventLoopGroup.next()) : .indifferent
            let task = client.execute(request: request, delegate: Collector(), eventLoop: preference)
            return try await task.futureResult.get()
        case .asyncInChildTask:
            var request = HTTPClientRequest(url: url.absoluteString)
            request.headers = headers
            async let head = client.execute(request, deadline: .distantFuture)
            let response = try await head
            guard response.status == .ok else { throw UnexpectedStatus(status: Int(response.status.code)) }
            return try await response.body.collect(upTo: 1 << 30)
        }
    }

    func data(from url: URL) async throws -> Int {
        try await body(from: url).readableBytes
    }

    func decode<Value: Decodable & Sendable>(_ type: Value.Type, from url: URL) async throws -> Value {
        try JSONDecoder().decode(Value.self, from: try await body(from: url))
    }

    func download(from url: URL, to destination: URL) async throws -> Int64 {
        throw UsageError("the engine-API clients run the small-request workloads only")
    }

    func upload(file: URL, to url: URL) async throws -> Int64 {
        throw UsageError("the engine-API clients run the small-request workloads only")
    }

    func shutdown() async {
        try? await client.shutdown()
    }
}

/// Collects a response body into one buffer and checks the status, on the event loop.
private final class Collector: HTTPClientResponseDelegate, Sendable {
    typealias Response = ByteBuffer

    private let state = Mutex<(status: UInt, body: ByteBuffer)>((0, ByteBuffer()))

    func didReceiveHead(task: HTTPClient.Task<ByteBuffer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLock { $0.status = head.status.code }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<ByteBuffer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        state.withLock { state in
            var buffer = buffer
            state.body.writeBuffer(&buffer)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<ByteBuffer>) throws -> ByteBuffer {
        let (status, body) = state.withLock { $0 }
        guard status == 200 else { throw UnexpectedStatus(status: Int(status)) }
        return body
    }
}
