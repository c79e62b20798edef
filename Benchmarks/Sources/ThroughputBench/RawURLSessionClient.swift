import Ferry
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession without Ferry, through its completion-handler API (async `data(for:)` can deadlock on Linux).
/// Configured as Ferry's transport configures its own: `.ephemeral`, no URL cache.
final class RawURLSessionClient: HTTPBenchClient {
    private let session: URLSession
    private let headers: [(String, String)]

    init(headers: HTTPHeaders) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
        self.headers = headers.map { ($0.name, $0.value) }
    }

    private func request(_ url: URL, method: String = "GET") -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.addValue(value, forHTTPHeaderField: name) }
        return request
    }

    private func dataTask(_ request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                continuation.resume(with: Self.result(data, response, error))
            }.resume()
        }
    }

    private static func result(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) -> Result<
        Data, any Error
    > {
        if let error { return .failure(error) }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { return .failure(UnexpectedStatus(status: status)) }
        return .success(data ?? Data())
    }

    func data(from url: URL) async throws -> Int {
        try await dataTask(request(url)).count
    }

    func decode<Value: Decodable & Sendable>(_ type: Value.Type, from url: URL) async throws -> Value {
        try JSONDecoder().decode(Value.self, from: try await dataTask(request(url)))
    }

    /// A download task; its file is moved to `destination` inside the completion handler, before Foundation
    /// deletes it.
    func download(from url: URL, to destination: URL) async throws -> Int64 {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int64, any Error>) in
            session.downloadTask(with: request(url)) { location, response, error in
                continuation.resume(
                    with: Result {
                        if let error { throw error }
                        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                        guard status == 200, let location else { throw UnexpectedStatus(status: status) }
                        try FileManager.default.moveItem(at: location, to: destination)
                        return try fileSize(destination)
                    })
            }.resume()
        }
    }

    func upload(file: URL, to url: URL) async throws -> Int64 {
        var request = request(url, method: "POST")
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let body: Data = try await withCheckedThrowingContinuation { continuation in
            session.uploadTask(with: request, fromFile: file) { data, response, error in
                continuation.resume(with: Self.result(data, response, error))
            }.resume()
        }
        return try JSONDecoder().decode(UploadReceipt.self, from: body).bytes
    }

    func shutdown() async {
        session.finishTasksAndInvalidate()
    }
}
