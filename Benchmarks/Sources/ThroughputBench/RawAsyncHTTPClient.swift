import AsyncHTTPClient
import Ferry
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// AsyncHTTPClient without Ferry: an `HTTPClient` with the configuration `AsyncHTTPClientTransport` gives its own
/// (no redirect following, decompression on), used through its async API, or for the small-request workloads
/// through one of the engine's other ways in (which a client that must stop a request from outside the awaiting
/// task would use).
final class RawAsyncHTTPClient: HTTPBenchClient {
    /// How a body held in memory is fetched.
    enum API {
        /// `execute(_:deadline:)` awaited in the calling task (`raw-ahc`).
        case async
        /// `execute(request:delegate:)` with a delegate that collects the body; no task of the client's
        /// (`raw-ahc-delegate`).
        case delegate
        /// The async API with the head awaited in a child task (`async let`), which a stop could cancel
        /// (`raw-ahc-child`).
        case asyncInChildTask
    }

    private let api: API
    private let client: HTTPClient
    private let headers: NIOHTTP1.HTTPHeaders

    init(api: API = .async, headers: Ferry.HTTPHeaders) {
        self.api = api
        client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClientTransport.defaultConfiguration)
        var fields = NIOHTTP1.HTTPHeaders()
        for header in headers { fields.add(name: header.name, value: header.value) }
        self.headers = fields
    }

    private func execute(_ url: URL, method: NIOHTTP1.HTTPMethod = .GET, body: HTTPClientRequest.Body? = nil)
        async throws
        -> HTTPClientResponse
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        request.headers = headers
        if let body {
            request.headers.replaceOrAdd(name: "Content-Type", value: "application/octet-stream")
            request.body = body
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        guard response.status == .ok else { throw UnexpectedStatus(status: Int(response.status.code)) }
        return response
    }

    /// The body of a GET of `url`, through ``api``.
    private func body(from url: URL) async throws -> ByteBuffer {
        switch api {
        case .async:
            return try await execute(url).body.collect(upTo: 1 << 30)
        case .asyncInChildTask:
            async let head = execute(url)
            return try await head.body.collect(upTo: 1 << 30)
        case .delegate:
            let request = try HTTPClient.Request(url: url, method: .GET, headers: headers)
            return try await client.execute(request: request, delegate: Collector(), eventLoop: .indifferent)
                .futureResult.get()
        }
    }

    /// Throws unless the client uses the async API: the transfer workloads compare that API only.
    private func requireAsyncAPI() throws {
        guard api == .async else { throw UsageError("raw-ahc-delegate and raw-ahc-child run the small workloads only") }
    }

    func data(from url: URL) async throws -> Int {
        try await body(from: url).readableBytes
    }

    func decode<Value: Decodable & Sendable>(_ type: Value.Type, from url: URL) async throws -> Value {
        try JSONDecoder().decode(Value.self, from: try await body(from: url))
    }

    /// Streams the body into a file, buffer by buffer.
    func download(from url: URL, to destination: URL) async throws -> Int64 {
        try requireAsyncAPI()
        let response = try await execute(url)
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: destination)
        defer { try? handle.close() }
        var written: Int64 = 0
        for try await buffer in response.body {
            try buffer.withUnsafeReadableBytes { bytes in try writeAll(bytes, to: handle.fileDescriptor) }
            written += Int64(buffer.readableBytes)
        }
        return written
    }

    /// Sends the file as a streamed body of 256 KiB buffers (the chunk size Ferry's file bodies use).
    func upload(file: URL, to url: URL) async throws -> Int64 {
        try requireAsyncAPI()
        let size = try fileSize(file)
        let chunks = FileBuffers(path: file.path, chunkSize: 256 << 10)
        let response = try await execute(url, method: .POST, body: .stream(chunks, length: .known(size)))
        let body = try await response.body.collect(upTo: 1 << 20)
        return try JSONDecoder().decode(UploadReceipt.self, from: body).bytes
    }

    /// Sends the chunks as a streamed body, each copied into a `ByteBuffer` as the engine reads it (what an application
    /// with `Data` chunks does, and what Ferry does).
    func streamUpload(_ chunks: RepeatedChunks, to url: URL) async throws -> Int64 {
        try requireAsyncAPI()
        let body = HTTPClientRequest.Body.stream(ChunkBuffers(chunks: chunks), length: .known(chunks.totalBytes))
        let response = try await execute(url, method: .POST, body: body)
        let received = try await response.body.collect(upTo: 1 << 20)
        return try JSONDecoder().decode(UploadReceipt.self, from: received).bytes
    }

    func shutdown() async {
        try? await client.shutdown()
    }
}

/// ``RepeatedChunks`` as SwiftNIO buffers.
private struct ChunkBuffers: AsyncSequence, Sendable {
    let chunks: RepeatedChunks

    struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: RepeatedChunks.AsyncIterator

        mutating func next() async -> ByteBuffer? {
            await chunks.next().map { ByteBuffer(bytes: $0) }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks.makeAsyncIterator()) }
}
