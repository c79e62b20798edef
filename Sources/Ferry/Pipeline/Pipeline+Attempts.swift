import Foundation

extension Pipeline {
    /// Runs every adapter in order on the prepared request.
    func adapt(
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
        // The adapted URL is checked as the request's own was.
        do throws(FerryError) {
            request.url = try resolve(request.url)
        } catch {
            throw error.adding(request: request, response: nil, body: nil)
        }
        if let error = controls.signal.error { throw error }
        observers.observe(.adapted(request, attempt: exchange.attempt), id: controls.id)
        return request
    }

    /// The wait before the next attempt, or `nil` when `error` stands. Counts the attempt when it is retried.
    func retryDelay(
        after error: FerryError, sent request: Request, chain: [any RequestInterceptor], controls: TransferControls,
        exchange: Exchange
    ) async throws(FerryError) -> Duration? {
        // A stop (cancellation, timeout) ends the request: nothing is retried after it.
        guard controls.signal.error == nil, !error.isCancellation, !error.isTimeout, !Task.isCancelled else {
            return nil
        }
        let failure = FailedAttempt(
            request: request, error: error.adding(request: request, response: nil, body: nil),
            attempt: exchange.attempt, elapsed: exchange.start.duration(to: Moment(timeouts.now)),
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
        if case .unacceptableStatus = error.reason {} else { exchange.updateHop { $0.failure = error.reason } }
        observers.observe(.retry(failure, delay: delay), id: controls.id)
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

    /// The task's validation applied to a head as it arrives (its status and declared content type): the error it
    /// gives, which the retriers judge and the transfer reports, or `nil` when the head passes. Applied once per
    /// head, here; the body's checks follow once it is read.
    func judge(_ head: HTTPResponse, sent request: Request, by validation: Validation) -> FerryError? {
        do throws(FerryError) {
            try validation.validateHead(head, for: request)
            return nil
        } catch {
            return error
        }
    }

    /// Waits `delay` on the session's clock, holding no slot; a stop or a cancellation ends the wait at once. The
    /// idle timeout does not count the wait; the total timeout does.
    func wait(
        _ delay: Duration, controls: TransferControls, exchange: Exchange
    ) async throws(FerryError) {
        exchange.urls.removeAll(keepingCapacity: true)
        exchange.head = nil
        exchange.endHop(retryDelay: delay)
        exchange.releaseSlot()
        exchange.timeout?.pause()
        if delay > .zero {
            let clock = configuration.timeoutClock
            let deadline = clock.now + delay
            let context = TransportContext(controls: controls, timeout: nil, uploadProgress: nil)
            do {
                try await context.stoppable { try await clock.sleep(until: deadline) }
            } catch {
                throw failure(error, signal: controls.signal)
            }
        }
        if let error = controls.signal.error { throw error }
        if Task.isCancelled { throw FerryError(.cancelled) }
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
