import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The phases of one network transaction as the transport reported them: on Apple platforms, URLSession's
/// `URLSessionTaskTransactionMetrics`. FoundationNetworking on Linux reports none, so there the list in
/// ``Metrics/transactions`` stays empty and ``Timeline`` (measured by Ferry itself) is the source of truth.
public struct TransactionMetrics: Sendable, Hashable {
    /// When the transport began fetching the resource.
    public var fetchStart: Date?
    /// Name resolution, when the transaction resolved a name.
    public var domainLookup: DateInterval?
    /// Opening the connection, TLS included; `nil` for a reused connection.
    public var connect: DateInterval?
    /// The TLS handshake, within ``connect``.
    public var secureConnection: DateInterval?
    /// Writing the request.
    public var request: DateInterval?
    /// Reading the response.
    public var response: DateInterval?
    /// The protocol spoken, such as `h2` or `http/1.1`.
    public var networkProtocolName: String?
    /// Whether the transaction ran on a connection opened earlier.
    public var isReusedConnection: Bool

    /// Creates transaction metrics.
    /// - Parameters:
    ///   - fetchStart: When fetching began.
    ///   - domainLookup: Name resolution.
    ///   - connect: Opening the connection.
    ///   - secureConnection: The TLS handshake.
    ///   - request: Writing the request.
    ///   - response: Reading the response.
    ///   - networkProtocolName: The protocol spoken.
    ///   - isReusedConnection: Whether the connection was reused.
    public init(
        fetchStart: Date? = nil, domainLookup: DateInterval? = nil, connect: DateInterval? = nil,
        secureConnection: DateInterval? = nil, request: DateInterval? = nil, response: DateInterval? = nil,
        networkProtocolName: String? = nil, isReusedConnection: Bool = false
    ) {
        self.fetchStart = fetchStart
        self.domainLookup = domainLookup
        self.connect = connect
        self.secureConnection = secureConnection
        self.request = request
        self.response = response
        self.networkProtocolName = networkProtocolName
        self.isReusedConnection = isReusedConnection
    }
}

extension TransactionMetrics {
    /// Copies URLSession's metrics of one transaction.
    init(_ metrics: URLSessionTaskTransactionMetrics) {
        func interval(_ start: Date?, _ end: Date?) -> DateInterval? {
            guard let start, let end, end >= start else { return nil }
            return DateInterval(start: start, end: end)
        }
        self.init(
            fetchStart: metrics.fetchStartDate,
            domainLookup: interval(metrics.domainLookupStartDate, metrics.domainLookupEndDate),
            connect: interval(metrics.connectStartDate, metrics.connectEndDate),
            secureConnection: interval(metrics.secureConnectionStartDate, metrics.secureConnectionEndDate),
            request: interval(metrics.requestStartDate, metrics.requestEndDate),
            response: interval(metrics.responseStartDate, metrics.responseEndDate),
            networkProtocolName: metrics.networkProtocolName,
            isReusedConnection: metrics.isReusedConnection)
    }
}
