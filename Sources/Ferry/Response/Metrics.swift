import Foundation

/// What Ferry counted while a request ran.
public struct Metrics: Sendable {
    /// Body bytes sent, over every hop.
    public var bytesSent: Int64
    /// Body bytes received for the final response, after any content decoding.
    public var bytesReceived: Int64
    /// Redirects followed.
    public var redirectCount: Int
    /// The URLs of every hop, in order; the last one answered.
    public var urls: [URL]
    /// The transport's own per-transaction phases (DNS, connect, TLS, request, response), every hop included, when it
    /// reports them: URLSession on Apple platforms does, FoundationNetworking on Linux never does.
    public var transactions: [TransactionMetrics]

    /// Creates metrics.
    /// - Parameters:
    ///   - bytesSent: Body bytes sent.
    ///   - bytesReceived: Body bytes received.
    ///   - redirectCount: Redirects followed.
    ///   - urls: The URL of every hop.
    ///   - transactions: The transport's per-transaction phases.
    public init(
        bytesSent: Int64 = 0, bytesReceived: Int64 = 0, redirectCount: Int = 0, urls: [URL] = [],
        transactions: [TransactionMetrics] = []
    ) {
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.redirectCount = redirectCount
        self.urls = urls
        self.transactions = transactions
    }
}
