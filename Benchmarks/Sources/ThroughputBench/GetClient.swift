#if FERRY_BENCH_PEERS
import Foundation
import Get

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Get (a peer on URLSession), used the way its README shows: one `APIClient`, `send(_:)` for a decoded body,
/// `data(for:)` for bytes, `upload(for:fromFile:)`. Compiled only with FERRY_BENCH_PEERS (Package.swift).
///
/// Its session is configured as the other URLSession clients' are (`.ephemeral`, no URL cache, Ferry's default
/// headers). Get adds `Accept: application/json` to every request that has none; nginx answers the same bytes.
struct GetClient: HTTPBenchClient {
    let client: APIClient

    init(headers: [(String, String)]) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpAdditionalHeaders = Dictionary(headers, uniquingKeysWith: { first, _ in first })
        client = APIClient(configuration: .init(baseURL: nil, sessionConfiguration: configuration))
    }

    func data(from url: URL) async throws -> Int {
        try await client.data(for: Request<Data>(url: url)).value.count
    }

    func decode<Value: Decodable & Sendable>(_ type: Value.Type, from url: URL) async throws -> Value {
        try await client.send(Request<Value>(url: url)).value
    }

    /// Get 2.2.1 compiles `download(for:)` only off Linux (`#if !os(Linux)` in APIClient.swift).
    func download(from url: URL, to destination: URL) async throws -> Int64 {
        throw Unsupported("Get 2.2.1 has no download(for:) on Linux")
    }

    func upload(file: URL, to url: URL) async throws -> Int64 {
        let request = Request<UploadReceipt>(
            url: url, method: .post, headers: ["Content-Type": "application/octet-stream"])
        return try await client.upload(for: request, fromFile: file).value.bytes
    }

    func shutdown() async {
        client.session.finishTasksAndInvalidate()
    }
}
#endif
