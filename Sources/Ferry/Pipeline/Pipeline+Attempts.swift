import Foundation

extension Pipeline {
    /// Runs attempts until one is the answer: adapt → send (redirects) → judge the head → retry after a wait, or
    /// return it (the body is read after).
    ///
    /// Without interceptors a successful attempt costs one `isEmpty` check more than a plain send; the chain is
    /// consulted only after a failure, and a failure is retried without interceptors only when a kept-alive
    /// connection was lost before any answer (once, for an idempotent request).
    func attempt(
        _ prepared: PreparedRequest, controls: TransferControls, exchange: inout Exchange
    ) async throws(FerryError) -> Opened {
        let chain = prepared.interceptors
        let replayable = !prepared.hasOneShotBody
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
            let opened: Opened
            do {
                opened = try await send(request, prepared: prepared, controls: controls, exchange: &exchange)
            } catch {
                let error = failure(error, signal: controls.signal)
                guard replayable,
                    let delay = try await retryDelay(
                        after: error, sent: request, chain: chain, controls: controls, exchange: &exchange)
                else { throw error }
                try await wait(delay, controls: controls, exchange: &exchange)
                continue
            }
            guard !chain.isEmpty, replayable, let rejection = rejection(of: opened.head, sent: request),
                let delay = try await retryDelay(
                    after: rejection, sent: request, chain: chain, controls: controls, exchange: &exchange)
            else { return opened }
            await drain(opened.body)
            try await wait(delay, controls: controls, exchange: &exchange)
        }
    }

    /// Runs every adapter in order on the prepared request.
    private func adapt(
        _ base: Request, chain: [any RequestInterceptor], controls: TransferControls, exchange: Exchange
    ) async throws(FerryError) -> Request {
        var request = base
        for interceptor in chain {
            do {
                request = try await interceptor.adapt(request, attempt: exchange.attempt)
            } catch {
                throw interceptorFailure(error, request: request, controls: controls)
            }
        }
        try request.headers.validate()
        if let error = controls.signal.error { throw error }
        events?.send(.adapted(request, attempt: exchange.attempt), id: controls.id)
        return request
    }

    /// The wait before the next attempt, or `nil` when `error` stands. Counts the attempt when it is retried.
    private func retryDelay(
        after error: FerryError, sent request: Request, chain: [any RequestInterceptor], controls: TransferControls,
        exchange: inout Exchange
    ) async throws(FerryError) -> Duration? {
        // A stop (cancellation, timeout) ends the request: nothing is retried after it.
        guard controls.signal.error == nil, !error.isCancellation, !error.isTimeout, !Task.isCancelled else {
            return nil
        }
        let failure = FailedAttempt(
            request: request, error: error.adding(request: request, response: nil, body: nil),
            attempt: exchange.attempt, elapsed: exchange.start.duration(to: timeouts.now),
            previousErrors: exchange.previousErrors)
        var delay: Duration?
        for retrier in chain {
            do {
                delay = try await retrier.retryDecision(for: failure).delay
            } catch {
                throw interceptorFailure(error, request: request, controls: controls)
            }
            if delay != nil { break }
        }
        if delay == nil, !exchange.retriedStaleConnection, Self.isStaleConnection(failure) {
            exchange.retriedStaleConnection = true
            delay = .zero
        }
        guard let delay else { return nil }
        events?.send(.retry(failure, delay: delay), id: controls.id)
        exchange.previousErrors.append(failure.error)
        exchange.attempt += 1
        return delay
    }

    /// Whether `failure` is a kept-alive connection the server closed as the request was sent: the connection was
    /// lost before any answer, on an idempotent request. Such a request is retried once, at once, by default.
    static func isStaleConnection(_ failure: FailedAttempt) -> Bool {
        failure.error.reason == .transport(.connectionLost) && failure.error.response == nil
            && RetryPolicy.idempotentMethods.contains(failure.request.method)
    }

    /// The error a status the session's validation rejects will give, for the retriers.
    private func rejection(of head: HTTPResponse, sent request: Request) -> FerryError? {
        guard let codes = configuration.validation.acceptableStatusCodes, !codes.contains(head.statusCode) else {
            return nil
        }
        return FerryError(.unacceptableStatus(head.statusCode), request: request, response: head)
    }

    /// Waits `delay` on the session's clock; a stop or a cancellation ends the wait at once. The idle timeout does
    /// not count the wait; the total timeout does.
    private func wait(
        _ delay: Duration, controls: TransferControls, exchange: inout Exchange
    ) async throws(FerryError) {
        exchange.urls.removeAll(keepingCapacity: true)
        exchange.head = nil
        exchange.timeout?.pause()
        if delay > .zero {
            let clock = configuration.timeoutClock
            let deadline = clock.now + delay
            let context = TransportContext(
                signal: controls.signal, timeout: nil, uploadProgress: nil, bufferOptions: nil)
            do {
                try await context.stoppable { try await clock.sleep(until: deadline) }
            } catch {
                throw failure(error, signal: controls.signal)
            }
        }
        if let error = controls.signal.error { throw error }
        if Task.isCancelled { throw FerryError(.cancelled) }
        exchange.timeout?.noteActivity()
    }

    /// Reads and drops the body of an attempt that will be retried, so the connection can be reused; a long one is
    /// abandoned instead.
    func drain(_ body: ResponseBody) async {
        let discard = BodyReceiver(DiscardDestination())
        do {
            try await body.forEach { chunk in try discard.write(chunk) }
        } catch {
            body.cancel()
        }
    }

    /// What an interceptor's error becomes: the stop's reason, a cancellation, a ``FerryError`` as it is, or
    /// ``FerryError/Reason/interceptorFailed``.
    private func interceptorFailure(_ error: any Error, request: Request, controls: TransferControls) -> FerryError {
        if let stop = controls.signal.error { return stop }
        if let error = error as? FerryError { return error.adding(request: request, response: nil, body: nil) }
        if error is CancellationError || Task.isCancelled { return FerryError(.cancelled, request: request) }
        return FerryError(.interceptorFailed, request: request, underlyingError: error)
    }
}
