/// What moves bytes: sends one request and gives the response head back, with the body still to read.
///
/// A transport sends exactly once: Ferry's pipeline follows redirects, applies timeouts and validation itself, so
/// every transport behaves the same. A transport must:
/// - return from ``send(_:context:)`` once the final head of this hop has arrived (a 3xx is an answer: do not follow
///   redirects, do not cache, do not retry), with a ``ResponseBody`` that yields the body's chunks in order;
/// - report upload progress with ``TransportContext/noteSent(totalBytesSent:expected:)`` and any other activity with
///   ``TransportContext/noteActivity()``;
/// - stop promptly, throwing, when the calling task is cancelled and when Ferry stops the request (a timeout, a
///   `cancel()`): either register ``TransportContext/onStop(_:)``, or run its waits through
///   ``TransportContext/stoppable(_:)``;
/// - map its own errors: throw ``FerryError`` (or `URLError`, which Ferry maps the same way on every transport).
///
/// `send` runs in the task that awaits the request, so the caller's priority and task-local values reach it.
public protocol Transport: Sendable {
    /// Sends `request` once and returns when the response head arrived.
    /// - Parameters:
    ///   - request: The request, fully prepared: absolute URL, validated headers, encoded body.
    ///   - context: Activity, progress and metrics reporting, and how Ferry stops the request.
    /// - Returns: The head and the body, still to be read.
    /// - Throws: ``FerryError`` (or `URLError`) when no head arrived.
    func send(_ request: Request, context: TransportContext) async throws -> TransportResponse

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
