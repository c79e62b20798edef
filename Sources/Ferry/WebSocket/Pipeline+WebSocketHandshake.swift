import Foundation

extension Pipeline {
    /// A WebSocket's handshake as one request of the session: prepared and adapted (``adaptWebSocket(_:attempt:)``), each
    /// hop given to the observers (tracing adds its `traceparent`) and the cookie jar before `connect` sends it, the
    /// cookies of each answer (a refusal's, a redirect's, the `101`'s) stored in the jar,
    /// redirects followed under the session's ``RedirectPolicy`` (RFC 6455 §4.1 lets a client follow them), and
    /// the session's ``EventMonitor``s, logging, metrics and tracing told of each step and of the end, with a
    /// ``Timeline``.
    ///
    /// A failed attempt goes to the session's and the request's retriers (a ``RetryPolicy``, an
    /// ``AuthenticationInterceptor``), as a request's does: on their word the handshake starts again, adapted anew,
    /// after their delay on the session's clock.
    ///
    /// Timeouts: each hop gets what is left of the request's total timeout, so that the whole handshake, redirects and
    /// retries included, ends with ``FerryError/TimeoutKind/total`` when it runs out; the engine also bounds each hop
    /// by the idle timeout. Not part of it: the limit on requests in flight (a socket is not a request in flight).
    /// - Parameters:
    ///   - request: The upgrade request as `Session.webSocket` made it.
    ///   - connect: Sends one hop's request and returns the open socket, or throws; a refused upgrade throws
    ///     ``FerryError/Reason/unacceptableStatus(_:)`` with the response head.
    ///   - head: The `101` response of an open socket.
    /// - Returns: The open socket.
    /// - Throws: ``FerryError``: preparation, an interceptor, `connect`, or too many redirects.
    func webSocketHandshake<Socket>(
        _ request: Request, connect: @Sendable (Request) async throws(FerryError) -> Socket,
        head: (Socket) -> HTTPResponse
    ) async throws(FerryError) -> Socket {
        let id = RequestID.next()
        let startDate = Date()
        let start = ContinuousClock.now
        var urls: [URL] = []
        var current = request
        var redirects = 0
        var retries = 0
        observers.observe(.created(request), id: id)
        observers.started(request, id: id)

        func end(_ response: HTTPResponse?, _ error: FerryError?) {
            let now = ContinuousClock.now
            let completion = RequestCompletion(
                request: current, response: response, error: error,
                metrics: Metrics(redirectCount: redirects, urls: urls, retryCount: retries),
                timeline: Timeline(
                    startDate: startDate, requestStart: start, firstResponseByte: response == nil ? nil : now,
                    requestCompleted: now))
            observers.observe(error?.isCancellation == true ? .cancelled(completion) : .completed(completion), id: id)
        }

        do throws(FerryError) {
            let prepared = try prepare(request)
            current = prepared.request
            let policy = request.redirectPolicy ?? configuration.redirectPolicy
            var attempt = 1
            var previousErrors: [FerryError] = []
            while true {
                let first = try await adaptWebSocket(prepared, attempt: attempt)
                current = first
                urls.removeAll()
                redirects = 0
                if !prepared.interceptors.isEmpty { observers.observe(.adapted(current, attempt: attempt), id: id) }
                observers.observe(.attemptStarted(current, attempt: attempt), id: id)
                do throws(FerryError) {
                    let socket = try await hops(
                        from: first, attempt: attempt, policy: policy, start: start, id: id, current: &current,
                        urls: &urls, redirects: &redirects, connect: connect, head: head)
                    end(head(socket), nil)
                    return socket
                } catch {
                    // The session's retriers judge a failed attempt as they judge a request's: a connection that
                    // failed, a refusal's status (an `AuthenticationInterceptor` refreshes its token on a 401).
                    let failure = FailedAttempt(
                        request: first, error: error, attempt: attempt, elapsed: start.duration(to: .now),
                        previousErrors: previousErrors)
                    guard
                        let delay = try await webSocketRetryDelay(
                            after: failure, chain: prepared.interceptors, totalTimeout: prepared.totalTimeout,
                            start: start)
                    else { throw error }
                    observers.observe(.retry(failure, delay: delay), id: id)
                    previousErrors.append(error)
                    attempt += 1
                    retries += 1
                    try await waitBeforeRetry(delay, request: current)
                }
            }
        } catch {
            end(error.response, error)
            throw error
        }
    }

    /// One attempt's hops: the upgrade sent, and each redirect the policy follows.
    private func hops<Socket>(
        from first: Request, attempt: Int, policy: RedirectPolicy, start: ContinuousClock.Instant, id: RequestID,
        current: inout Request, urls: inout [URL], redirects: inout Int,
        connect: @Sendable (Request) async throws(FerryError) -> Socket, head: (Socket) -> HTTPResponse
    ) async throws(FerryError) -> Socket {
        current = first
        while true {
            urls.append(current.url)
            var sent = current
            observers.willSend(&sent, id: id)
            // The jar's cookies go on what is sent, so that each hop gets those for its own URL.
            sent = configuration.cookieJar.map { $0.addingCookies(to: sent) } ?? sent
            if let total = current.totalTimeout {
                let left = total - start.duration(to: .now)
                guard left > .zero else { throw FerryError(.timedOut(.total), request: current) }
                sent.totalTimeout = left
            }
            let socket: Socket
            do throws(FerryError) {
                socket = try await connect(sent)
            } catch {
                // A hop's timeout names the whole handshake's total (the hop had only what was left of it).
                if error.reason == .timedOut(.total) { throw FerryError(.timedOut(.total), request: current) }
                if let answer = error.response { configuration.cookieJar?.storeCookies(of: answer, for: sent.url) }
                guard case .unacceptableStatus = error.reason, let refused = error.response else { throw error }
                observers.observe(.responseHead(refused, attempt: attempt), id: id)
                guard let next = Self.redirect(after: refused, from: current, policy: policy) else { throw error }
                guard redirects < policy.limit else {
                    throw FerryError(.tooManyRedirects(limit: policy.limit), request: sent, response: refused)
                }
                observers.observe(.redirect(refused, next: next), id: id)
                redirects += 1
                current = next
                continue
            }
            let accepted = head(socket)
            configuration.cookieJar?.storeCookies(of: accepted, for: sent.url)
            observers.observe(.responseHead(accepted, attempt: attempt), id: id)
            return socket
        }
    }

    /// The wait before the handshake's next attempt, or `nil` when `failure` stands: a cancellation or a timeout is
    /// never retried, and a wait that would outlast the total timeout is not started.
    private func webSocketRetryDelay(
        after failure: FailedAttempt, chain: [any RequestInterceptor], totalTimeout: Duration?,
        start: ContinuousClock.Instant
    ) async throws(FerryError) -> Duration? {
        guard !failure.error.isCancellation, !failure.error.isTimeout, !Task.isCancelled else { return nil }
        for retrier in chain {
            let delay: Duration?
            do {
                delay = try await retrier.retryDecision(for: failure).delay
            } catch {
                if error is CancellationError || Task.isCancelled {
                    throw FerryError(.cancelled, request: failure.request)
                }
                throw FerryError(.interceptorFailed, request: failure.request, underlyingError: error)
            }
            guard let delay else { continue }
            if let totalTimeout, start.duration(to: .now) + delay >= totalTimeout {
                throw FerryError(.timedOut(.total), request: failure.request)
            }
            return delay
        }
        return nil
    }

    /// Waits on the session's clock before the next attempt; cancelling the awaiting task ends the wait at once.
    private func waitBeforeRetry(_ delay: Duration, request: Request) async throws(FerryError) {
        guard delay > .zero else { return }
        let clock = configuration.timeoutClock
        do {
            try await clock.sleep(until: clock.now + delay)
        } catch {
            throw FerryError(.cancelled, request: request)
        }
    }

    /// The next upgrade request after a refusal, when `policy` follows it: the `Location` may say `ws` or `wss`
    /// (read as `http` and `https`); a redirect to another origin drops the credentials, as for any request.
    private static func redirect(after refused: HTTPResponse, from request: Request, policy: RedirectPolicy) -> Request?
    {
        var head = refused
        // The refusal reports the `ws` URL; the policy resolves `Location` against the URL that was sent.
        head.url = request.url
        if let location = head.headers["Location"] {
            head.headers.update(name: "Location", value: WebSocketHandshake.httpLocation(location))
        }
        guard var next = policy.nextRequest(after: head, to: request) else { return nil }
        // The method stays GET (a 303 makes it GET anyway); a request may carry no body.
        next.method = .get
        next.body = nil
        return next
    }
}
