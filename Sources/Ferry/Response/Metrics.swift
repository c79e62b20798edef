import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
    #if canImport(Darwin)
    /// URLSession's own metrics of the last hop, when the URLSession transport ran on an Apple platform.
    public var taskMetrics: URLSessionTaskMetrics?
    #endif

    /// Creates metrics.
    /// - Parameters:
    ///   - bytesSent: Body bytes sent.
    ///   - bytesReceived: Body bytes received.
    ///   - redirectCount: Redirects followed.
    ///   - urls: The URL of every hop.
    public init(bytesSent: Int64 = 0, bytesReceived: Int64 = 0, redirectCount: Int = 0, urls: [URL] = []) {
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.redirectCount = redirectCount
        self.urls = urls
    }
}
