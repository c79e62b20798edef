#if FERRY_BENCH_PEERS
import Alamofire
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Alamofire (a peer on URLSession), used the way its README shows: a `Session`, `request(_:)` /
/// `download(_:to:)` / `upload(_:to:)`, `validate()` and the async serializers. Compiled only with
/// FERRY_BENCH_PEERS (Package.swift).
///
/// Its own `Session` rather than `AF`, configured as the other URLSession clients are (`.ephemeral`, no URL cache) so
/// that no client answers from a cache; Ferry's default headers replace Alamofire's own defaults on the configuration,
/// so that every client asks nginx for the same bytes.
struct AlamofireClient: HTTPBenchClient {
    let session: Session

    init(headers: [(String, String)]) {
        let configuration = URLSessionConfiguration.af.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.headers = HTTPHeaders(headers.map { HTTPHeader(name: $0.0, value: $0.1) })
        session = Session(configuration: configuration)
    }

    func data(from url: URL) async throws -> Int {
        try await session.request(url).validate().serializingData().value.count
    }

    func decode<Value: Decodable & Sendable>(_ type: Value.Type, from url: URL) async throws -> Value {
        try await session.request(url).validate().serializingDecodable(Value.self).value
    }

    func download(from url: URL, to destination: URL) async throws -> Int64 {
        let file = try await session.download(url, to: { _, _ in (destination, []) })
            .validate().serializingDownloadedFileURL().value
        return try fileSize(file)
    }

    func upload(file: URL, to url: URL) async throws -> Int64 {
        try await session.upload(file, to: url, headers: [.contentType("application/octet-stream")])
            .validate().serializingDecodable(UploadReceipt.self).value.bytes
    }

    func shutdown() async {
        session.session.finishTasksAndInvalidate()
    }
}
#endif
