import Foundation

/// What Ferry counted while a request ran.
public struct Metrics: Sendable {
    /// Body bytes sent, over every hop of every attempt.
    public var bytesSent: Int64
    /// Body bytes received for the final response, after any content decoding.
    public var bytesReceived: Int64
    /// Redirects followed by the last attempt.
    public var redirectCount: Int
    /// The URL of every hop of the last attempt, in order (the redirect chain); the last one answered.
    public var urls: [URL]
    /// How many times the request was retried (by its interceptors, or after a lost kept-alive connection).
    public var retryCount: Int
    /// The transport's own per-transaction phases (DNS, connect, TLS, request, response), every hop included, when it
    /// reports them: URLSession on Apple platforms does, FoundationNetworking on Linux never does.
    public var transactions: [TransactionMetrics]
    /// Where the response came from, when the session has an ``HTTPCache`` and the request could use it (a `GET`
    /// read into memory, or an unsafe request, which invalidates); `nil` otherwise.
    public var cacheStatus: CacheStatus?

    /// Creates metrics.
    /// - Parameters:
    ///   - bytesSent: Body bytes sent.
    ///   - bytesReceived: Body bytes received.
    ///   - redirectCount: Redirects followed.
    ///   - urls: The URL of every hop.
    ///   - transactions: The transport's per-transaction phases.
    ///   - retryCount: Retries.
    ///   - cacheStatus: Where the response came from, with a cache.
    public init(
        bytesSent: Int64 = 0, bytesReceived: Int64 = 0, redirectCount: Int = 0, urls: [URL] = [],
        transactions: [TransactionMetrics] = [], retryCount: Int = 0, cacheStatus: CacheStatus? = nil
    ) {
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.redirectCount = redirectCount
        self.urls = urls
        self.transactions = transactions
        self.retryCount = retryCount
        self.cacheStatus = cacheStatus
    }
}
