import Foundation

/// The request's journey, in the task that awaits it: prepare once → send (following redirects, under the
/// session's timeout timer) → the head comes back → decide where the body goes → read it there. Validation and
/// serialization follow in the task (see ``DataTask``).
struct Pipeline: Sendable {
    let configuration: Session.Configuration
    /// The session's one timeout timer.
    let timeouts: TimeoutScheduler
    /// Why the session's default headers are invalid, if they are: checked once, not on every request.
    let defaultHeadersError: FerryError?

    init(configuration: Session.Configuration) {
        self.configuration = configuration
        self.timeouts = TimeoutScheduler(clock: configuration.timeoutClock)
        do {
            try configuration.headers.validate()
            defaultHeadersError = nil
        } catch {
            defaultHeadersError = error
        }
    }

    /// A request whose final head arrived; its body is still to be read.
    struct Opened: Sendable {
        var head: HTTPResponse
        var body: ResponseBody
        var prepared: PreparedRequest
    }

    /// Prepares `original` and sends it, following redirects, until the final head arrives.
    /// - Parameters:
    ///   - original: The request as the user made it.
    ///   - controls: The transfer's stop signal, progress and buffering.
    ///   - exchange: What is measured; the timeout registration is made here and stays for the body.
    /// - Returns: The final head and its unread body.
    /// - Throws: ``FerryError``, with the reason a stop gave when there was one.
    func open(
        _ original: Request, controls: TransferControls, exchange: inout Exchange
    ) async throws(FerryError)
        -> Opened
    {
        let prepared = try prepare(original)
        exchange.request = prepared.request
        let deadline = prepared.totalTimeout.map { exchange.start + $0 }
        exchange.timeout = timeouts.register(
            idle: prepared.idleTimeout, deadline: deadline, stopping: controls.signal)
        do {
            return try await send(prepared, controls: controls, exchange: &exchange)
        } catch {
            throw failure(error, signal: controls.signal)
        }
    }

    /// Sends each hop until one is the final answer.
    private func send(
        _ prepared: PreparedRequest, controls: TransferControls, exchange: inout Exchange
    ) async throws
        -> Opened
    {
        if let error = controls.signal.error { throw error }
        try Task.checkCancellation()
        let policy = prepared.redirectPolicy
        var current = try await spoolIfNeeded(prepared.request)
        var redirects = 0
        while true {
            exchange.urls.append(current.url)
            let context = TransportContext(
                signal: controls.signal, timeout: exchange.timeout,
                uploadProgress: controls.uploadProgress, bufferOptions: controls.bufferOptions)
            let response = try await configuration.transport.send(current, context: context)
            exchange.firstResponseByte = exchange.firstResponseByte ?? .now
            exchange.head = response.head
            try Self.checkFraming(of: response, method: current.method)
            exchange.timeout?.noteActivity()
            exchange.add(context, body: current.body)
            guard let next = policy.nextRequest(after: response.head, to: current) else {
                return Opened(head: response.head, body: response.body, prepared: prepared)
            }
            try await discard(response, limit: policy.limit, redirects: redirects, next: next)
            redirects += 1
            current = next
        }
    }

    /// Refuses a response whose body cannot be delimited before any of it is read: a present but invalid or
    /// conflicting `Content-Length` (RFC 9112 §6.3), which an engine may otherwise ignore and read to the close.
    private static func checkFraming(of response: TransportResponse, method: HTTPMethod) throws(FerryError) {
        guard response.head.hasInvalidContentLength, !response.head.permitsEmptyBody(for: method) else { return }
        response.body.cancel()
        var error = FerryError(
            .transport(.invalidResponse), detail: .malformedResponse("its Content-Length is invalid"),
            underlyingError: nil)
        error.response = response.head
        throw error
    }

    /// Reads a redirect's body, which nobody wants, after checking the redirect may be followed.
    private func discard(_ response: TransportResponse, limit: Int, redirects: Int, next: Request) async throws {
        guard redirects < limit else {
            response.body.cancel()
            throw FerryError(.tooManyRedirects(limit: limit), response: response.head)
        }
        if case .stream = next.body?.content {
            response.body.cancel()
            throw FerryError(
                .invalidRequest("a streamed body cannot be sent again for a \(response.head.statusCode) redirect"),
                response: response.head)
        }
        let discard = BodyReceiver(DiscardDestination())
        do {
            try await response.body.forEach { chunk in try discard.write(chunk) }
        } catch let error as FerryError where error.reason == .bodyTooLarge(limit: DiscardDestination.limit) {
            response.body.cancel()
        }
    }

    /// The error to report: the stop's reason (a timeout, a cancellation) when the request was stopped, else the
    /// error mapped to a ``FerryError``.
    func failure(_ error: any Error, signal: StopSignal) -> FerryError {
        if let stop = signal.error { return stop }
        return FerryError.mapping(error, cancelled: Task.isCancelled)
    }

    /// Spools a stream body to a temporary file when the transport cannot stream request bodies.
    private func spoolIfNeeded(_ request: Request) async throws -> Request {
        guard !configuration.transport.streamsRequestBodies, let body = request.body,
            case .stream(let source, _) = body.content
        else { return request }
        var spooled = request
        spooled.body = try await body.spooled(source)
        return spooled
    }
}
