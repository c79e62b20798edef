import Foundation

/// The request's journey, in the task that awaits it: prepare once → for each attempt: adapt → send (following
/// redirects, under the session's timeout timer) → the head comes back → judge it by the task's validation → retry?
/// → decide where the body goes → read it there (``readData(_:controls:)``, ``readDownload(_:target:controls:)``, or
/// a stream's consumer through ``Transfer``). Serialization follows in the awaiting task (see ``DataTask``).
final class Pipeline: Sendable {
    let configuration: Session.Configuration
    /// The session's one timeout timer.
    let timeouts: TimeoutScheduler
    /// Why the session's default headers are invalid, if they are: checked once, not on every request.
    let defaultHeadersError: FerryError?
    /// The session's event monitors, or `nil` when it has none.
    let events: EventDelivery?
    /// Who watches each request: the monitors' delivery and tracing, when the session has them. Empty, the
    /// pipeline pays one loop over nothing per step.
    let observers: [any TransferObserver]
    /// The limits on requests in flight, or `nil` when the session has none.
    let limiter: RequestLimiter?
    /// The session's running transfers: requests the pipeline starts itself (a cache's background revalidation)
    /// are counted, waited for at shutdown and cancelled like the others.
    let registry = TransferRegistry()

    init(configuration: Session.Configuration) {
        self.configuration = configuration
        self.timeouts = TimeoutScheduler(clock: configuration.timeoutClock)
        let events = EventDelivery(monitors: configuration.eventMonitors, limit: configuration.eventBufferLimit)
        self.events = events
        var observers: [any TransferObserver] = events.map { [$0] } ?? []
        #if Tracing
        observers.append(RequestTracing(tracer: configuration.tracer))
        #endif
        self.observers = observers
        self.limiter = RequestLimiter(
            perHost: configuration.maximumRequestsPerHost, total: configuration.maximumRequestsInFlight)
        do {
            try configuration.headers.validate()
            defaultHeadersError = nil
        } catch {
            defaultHeadersError = error
        }
    }

    /// A request whose final head arrived: what reading its body needs.
    ///
    /// A reference, like ``Exchange`` and for the same reason: the transfer's state machine, its actions and the
    /// frames that hold one carry a pointer rather than some 500 bytes (Benchmarks/README, the allocation row).
    final class Opened: Sendable {
        let head: HTTPResponse
        let body: ResponseBody
        let prepared: PreparedRequest
        /// The decoded body's length as the head declares it: `nil` when it has no `Content-Length` or a
        /// `Content-Encoding` (whose length says nothing of the decoded size). Read once, when the head arrives.
        let bodyLength: Int64?
        /// The task's validation's verdict on the head (status, declared content type), when it rejects it: judged
        /// once, when the head arrives.
        let rejection: FerryError?
        /// What the request measured, to be completed by the body's reader.
        let exchange: Exchange
        /// The validation the pipeline applied (the opening task's).
        let validation: Validation
        /// A download's temporary file.
        let file: DownloadFile?

        init(
            _ answer: Answer, prepared: PreparedRequest, rejection: FerryError?, exchange: Exchange,
            validation: Validation, file: DownloadFile?
        ) {
            head = answer.response.head
            body = answer.response.body
            bodyLength = answer.bodyLength
            self.prepared = prepared
            self.rejection = rejection
            self.exchange = exchange
            self.validation = validation
            self.file = file
        }
    }

    /// An attempt's final head, with its unread body and the body's declared length.
    struct Answer: Sendable {
        var response: TransportResponse
        var bodyLength: Int64?
    }

    /// Prepares `original` and runs its attempts until one is the answer: adapt → send (following redirects) →
    /// judge the head → wait and retry, or return the head (its body is read after).
    ///
    /// Without interceptors a successful attempt costs one `isEmpty` check more than a plain send: the chain is
    /// consulted only after a failure, and a failure is retried without interceptors only when a kept-alive
    /// connection was lost before any answer (once, for an idempotent request).
    /// - Parameters:
    ///   - original: The request as the user made it.
    ///   - validation: The task's validation: a head it rejects is what the retriers judge.
    ///   - controls: The transfer's stop signal, progress and buffering.
    ///   - exchange: What is measured; the timeout registration is made here and stays for the body.
    ///   - file: A download's temporary file, handed on to the body's reader.
    ///   - cache: The session's cache, for a request whose body is read into memory or downloaded, and for a stream's
    ///     unsafe request, which only invalidates (`Pipeline+Cache.swift`).
    /// - Returns: The final head and its unread body.
    /// - Throws: ``FerryError``, with the reason a stop gave when there was one.
    func open(
        _ original: Request, validation: Validation, controls: TransferControls, exchange: Exchange,
        file: DownloadFile? = nil, cache: HTTPCache? = nil
    ) async throws(FerryError)
        -> Opened
    {
        let prepared = try prepare(original)
        exchange.request = prepared.request
        let deadline = prepared.totalTimeout.map { exchange.start + $0 }
        exchange.timeout = timeouts.register(
            idle: prepared.idleTimeout, deadline: deadline, stopping: controls)
        // The idle time counts while the transport waits on the network, from each hand-over on (`send`): not while
        // Ferry's own steps (the cache, spooling, interceptors) run or wait for a thread to run on.
        exchange.timeout?.pause()
        let chain = prepared.interceptors
        var revalidating: Revalidation?
        if let cache, prepared.request.method == .get {
            switch await openFromCache(
                prepared, in: cache, validation: validation, exchange: exchange, file: file, id: controls.id)
            {
            case .opened(let opened): return opened
            case .revalidate(let revalidation): revalidating = revalidation
            case .send: break
            }
        }
        let base: Request
        do {
            base = try await spoolIfNeeded(prepared.request)
        } catch {
            throw failure(error, signal: controls.signal)
        }
        while true {
            var request = base
            if !chain.isEmpty {
                request = try await adapt(base, chain: chain, controls: controls, exchange: exchange)
                exchange.request = request
            }
            // The request as the client asked it, without the cache's validators: its own conditions are judged
            // apart from the cache's (RFC 9111 §4.3.2).
            let asked = request
            if let revalidating {
                request.headers = ConditionalRequest.headers(
                    for: request.headers, revalidating: revalidating.entry.stored)
            }
            // When the request was sent, by the cache's clock (RFC 9111 §4.2.3's `request_time`); only with a cache.
            let requestTime = cache?.now()
            var answer: Answer
            do {
                answer = try await send(request, prepared: prepared, controls: controls, exchange: exchange)
            } catch {
                let error = failure(error, signal: controls.signal)
                if let cache, let requestTime, let revalidating, error.reason != .cancelled,
                    let stale = await servedOnError(
                        revalidating, for: asked, in: cache, requestTime: requestTime, prepared: prepared,
                        validation: validation, exchange: exchange, file: file, id: controls.id)
                {
                    return stale
                }
                guard !prepared.hasOneShotBody,
                    let delay = try await retryDelay(
                        after: error, sent: request, chain: chain, controls: controls, exchange: exchange)
                else { throw error }
                try await wait(delay, controls: controls, exchange: exchange)
                continue
            }
            if let cache, let requestTime {
                if let entry = revalidating,
                    await concludeRevalidation(
                        entry, answer: &answer, for: asked, in: cache, requestTime: requestTime, exchange: exchange,
                        streaming: file != nil)
                {
                    // Sent again without validators, as the same attempt: its first hop starts the URLs over.
                    revalidating = nil
                    exchange.urls.removeAll(keepingCapacity: true)
                    exchange.head = nil
                    exchange.endHop()
                    continue
                }
                await noteForCache(answer, request: request, cache: cache, requestTime: requestTime, exchange: exchange)
            }
            let rejection = judge(answer.response.head, sent: request, by: validation)
            guard !chain.isEmpty, !prepared.hasOneShotBody, let rejection,
                let delay = try await retryDelay(
                    after: rejection, sent: request, chain: chain, controls: controls, exchange: exchange)
            else {
                if let status = exchange.cacheStatus, exchange.cacheDecided == nil {
                    // A revalidation's outcome (or a miss after it), settled with the answer.
                    settleCache(status, for: prepared.request, exchange: exchange, id: controls.id)
                }
                return Opened(
                    answer, prepared: prepared, rejection: rejection, exchange: exchange, validation: validation,
                    file: file)
            }
            await drain(answer.response.body)
            try await wait(delay, controls: controls, exchange: exchange)
        }
    }

    /// Sends one attempt's request, hop by hop, until a head is the final answer.
    func send(
        _ request: Request, prepared: PreparedRequest, controls: TransferControls, exchange: Exchange
    ) async throws
        -> Answer
    {
        if let error = controls.signal.error { throw error }
        try Task.checkCancellation()
        let policy = prepared.redirectPolicy
        var current = request
        var redirects = 0
        observers.observe(.attemptStarted(request, attempt: exchange.attempt), id: controls.id)
        while true {
            exchange.urls.append(current.url)
            let context = TransportContext(
                controls: controls, timeout: exchange.timeout,
                uploadProgress: controls.uploadProgress(forBody: current.body))
            observers.willSend(&current, id: controls.id)
            // The jar's cookies are added to what is sent, not to `current`: the next hop gets those for its own URL.
            let sent = configuration.cookieJar.map { $0.addingCookies(to: current) } ?? current
            let handOver = Moment.now
            exchange.beginHop(sent, hop: redirects, at: handOver)
            // Without limits, no wait and no call: a session without a limiter pays this one check.
            if let limiter {
                try await admit(sent, to: limiter, since: handOver, controls: controls, exchange: exchange)
            }
            exchange.timeout?.noteActivity()
            let response = try await configuration.transport.send(sent, context: context)
            configuration.cookieJar?.storeCookies(of: response.head, for: current.url)
            exchange.received(response.head)
            let bodyLength = try Self.checkFraming(of: response, method: current.method)
            exchange.timeout?.noteActivity()
            exchange.add(context, body: current.body)
            observers.observe(.responseHead(response.head, attempt: exchange.attempt), id: controls.id)
            guard let next = policy.nextRequest(after: response.head, to: current) else {
                return Answer(response: response, bodyLength: bodyLength)
            }
            try await discard(response, limit: policy.limit, redirects: redirects, next: next)
            exchange.endHop()
            observers.observe(.redirect(response.head, next: next), id: controls.id)
            redirects += 1
            current = next
        }
    }

    /// Refuses a head that cannot be read as a final response before any of its body is read: a present but invalid
    /// or conflicting `Content-Length` (RFC 9112 §6.3), which an engine may otherwise ignore and read to the close,
    /// and an interim (1xx) status handed on as the final one, which FoundationNetworking does with `103 Early
    /// Hints`, losing the real head.
    /// - Returns: The decoded body's declared length (``Opened/bodyLength``).
    private static func checkFraming(of response: TransportResponse, method: HTTPMethod) throws(FerryError) -> Int64? {
        let head = response.head
        let declaration = head.contentLengthDeclaration
        let problem: String
        if (100..<200).contains(head.statusCode), head.statusCode != 101 {
            problem = "an interim \(head.statusCode) head came as the final response"
        } else if declaration == .invalid, !head.permitsEmptyBody(for: method) {
            problem = "its Content-Length is invalid"
        } else {
            guard case .length(let length) = declaration, !head.headers.contains("Content-Encoding") else { return nil }
            return length
        }
        response.body.cancel()
        var error = FerryError(.transport(.invalidResponse), detail: .malformedResponse(problem), underlyingError: nil)
        error.response = head
        throw error
    }

    /// Reads a redirect's body, which nobody wants, after checking the redirect may be followed.
    private func discard(
        _ response: TransportResponse, limit: Int, redirects: Int, next: Request
    ) async throws {
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
    func failure(_ error: any Error, signal: borrowing StopSignal) -> FerryError {
        if let stop = signal.error { return stop }
        return FerryError.mapping(error, cancelled: Task.isCancelled)
    }

    /// Spools a stream body to a temporary file when the transport cannot stream request bodies.
    func spoolIfNeeded(_ request: Request) async throws -> Request {
        guard !configuration.transport.streamsRequestBodies, let body = request.body,
            case .stream(let source, _) = body.content
        else { return request }
        var spooled = request
        spooled.body = try await body.spooled(source)
        return spooled
    }
}
