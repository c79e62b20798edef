import AsyncHTTPClient
import Ferry
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// AsyncHTTPClient without Ferry: an `HTTPClient` with the configuration `AsyncHTTPClientTransport` gives its own
/// (no redirect following, decompression on), used through its async API.
final class RawAsyncHTTPClient: HTTPBenchClient {
    private let client: HTTPClient
    private let headers: NIOHTTP1.HTTPHeaders

    init(headers: Ferry.HTTPHeaders) {
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

    func data(from url: URL) async throws -> Int {
        try await execute(url).body.collect(upTo: 1 << 30).readableBytes
    }

    func decode<Value: Decodable & Sendable>(_ type: Value.Type, from url: URL) async throws -> Value {
        let body = try await execute(url).body.collect(upTo: 1 << 30)
        return try JSONDecoder().decode(Value.self, from: body)
    }

    /// Streams the body into a file, buffer by buffer.
    func download(from url: URL, to destination: URL) async throws -> Int64 {
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
        let size = try fileSize(file)
        let chunks = FileBuffers(path: file.path, chunkSize: 256 << 10)
        let response = try await execute(url, method: .POST, body: .stream(chunks, length: .known(size)))
        let body = try await response.body.collect(upTo: 1 << 20)
        return try JSONDecoder().decode(UploadReceipt.self, from: body).bytes
    }

    func shutdown() async {
        try? await client.shutdown()
    }
}
