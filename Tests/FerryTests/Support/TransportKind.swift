import Ferry
import Foundation

/// The transports the live suites run against: URLSession always, AsyncHTTPClient when the package trait is on.
enum TransportKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case urlSession
    #if AsyncHTTPClient
    case asyncHTTPClient
    #endif

    var description: String { rawValue }

    /// A new transport of this kind; an AsyncHTTPClient one owns its client and is shut down with its session.
    func makeTransport() -> any Transport {
        switch self {
        case .urlSession: URLSessionTransport()
        #if AsyncHTTPClient
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        #endif
        }
    }

    /// Whether the transport can pause reading for a slow stream consumer.
    var pausesForSlowConsumers: Bool {
        switch self {
        case .urlSession: false
        #if AsyncHTTPClient
        case .asyncHTTPClient: true
        #endif
        }
    }

    /// Whether the transport reaches IPv6 literal hosts (`http://[::1]:8080/`): FoundationNetworking refuses them.
    var reachesIPv6LiteralHosts: Bool {
        switch self {
        #if canImport(FoundationNetworking)
        case .urlSession: false
        #else
        case .urlSession: true
        #endif
        #if AsyncHTTPClient
        case .asyncHTTPClient: true
        #endif
        }
    }
}
