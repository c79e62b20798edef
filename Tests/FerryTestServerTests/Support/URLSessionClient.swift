import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession with the completion-handler API wrapped in a continuation (the async `data(for:)` deadlocks on
/// Linux), without proxies or caches.
enum URLSessionClient {
    struct NotHTTP: Error {}

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 10
        return URLSession(configuration: configuration)
    }()

    /// Sends `request` and returns the body and response.
    static func fetch(_ request: URLRequest) async throws -> (body: Data, response: HTTPURLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response = response as? HTTPURLResponse {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: NotHTTP())
                }
            }
            task.resume()
        }
    }

    /// Sends a GET to `url`.
    static func get(_ url: URL) async throws -> (body: Data, response: HTTPURLResponse) {
        try await fetch(URLRequest(url: url))
    }
}
