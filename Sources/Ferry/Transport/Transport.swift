/// What moves bytes: sends one request and delivers the response into a ``ResponseSink``.
///
/// A transport sends exactly once: Ferry's pipeline follows redirects, applies timeouts and validation itself, so
/// every transport behaves the same. A transport must:
/// - call ``ResponseSink/receive(_:)-(HTTPResponse)`` once with the head, then
///   ``ResponseSink/receive(_:)-(Data)`` (or, when it can pause reading, ``ResponseSink/write(_:)``, which waits
///   for a slow stream consumer) for each body chunk in order, and return when the body is complete;
/// - report upload progress with ``ResponseSink/noteSent(totalBytesSent:expected:)``;
/// - stop and throw promptly when the calling Swift task is cancelled, or when the sink throws;
/// - not follow redirects (return the 3xx response), not cache, not retry.
///
/// Errors may be ``FerryError``, `URLError` or `CancellationError`; Ferry maps the latter two.
public protocol Transport: Sendable {
    /// Sends `request` once and delivers the response into `sink`.
    /// - Parameters:
    ///   - request: The request, fully prepared: absolute URL, validated headers, encoded body.
    ///   - sink: Where the head and the body go.
    /// - Returns: What the transport measured.
    /// - Throws: When the request cannot be completed.
    func send(_ request: Request, into sink: ResponseSink) async throws -> TransportReport

    /// Lets in-flight requests finish, then releases the transport's resources. Called by
    /// ``Session/shutdown(cancellingInFlightRequests:)``.
    func shutdown() async

    /// Whether the transport sends a ``RequestBody/Content/stream(_:count:)`` body as it is produced. When `false`,
    /// Ferry spools such a body to a temporary file first and hands the transport a ``RequestBody/Content/file(_:)``.
    var streamsRequestBodies: Bool { get }
}

extension Transport {
    /// Does nothing.
    public func shutdown() async {}

    /// `false`: stream bodies are spooled to a file before they reach the transport.
    public var streamsRequestBodies: Bool { false }
}

/// What a transport measured while sending one request.
public struct TransportReport: Sendable {
    /// Body bytes sent.
    public var bytesSent: Int64
    /// The HTTP version used, when the transport knows it.
    public var httpVersion: String?

    /// Creates a report.
    /// - Parameters:
    ///   - bytesSent: Body bytes sent.
    ///   - httpVersion: The HTTP version used, when known.
    public init(bytesSent: Int64, httpVersion: String? = nil) {
        self.bytesSent = bytesSent
        self.httpVersion = httpVersion
    }
}
