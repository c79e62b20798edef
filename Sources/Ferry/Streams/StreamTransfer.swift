import Foundation

/// A streamed request's transfer: opened (sent, until the final head) by the first task that awaits the head,
/// then read chunk by chunk by the one consumer of its body, in the consumer's task. Nothing runs while nobody
/// awaits: a transport that can pause reading is paused by the consumer itself.
final class StreamTransfer: RunningTransfer {
    private enum Phase {
        case idle
        case opening(waiters: [UnsafeContinuation<Void, Never>])
        case open(Pipeline.Opened, Exchange)
        case finished(TransferOutcome)
    }

    private struct State {
        var phase = Phase.idle
        var consumerClaimed = false
        /// Whether the consumer is inside `next()`: a stop then ends its read, else the stop ends the stream.
        var reading = false
        var finishWaiters: [UnsafeContinuation<TransferOutcome, Never>] = []
    }

    let controls: TransferControls
    private let request: Request
    private let pipeline: Pipeline
    private let registry: TransferRegistry?
    private let state = Locked(State())

    init(request: Request, pipeline: Pipeline, registry: TransferRegistry?, options: StreamOptions) {
        self.request = request
        self.pipeline = pipeline
        self.registry = registry
        controls = TransferControls(bufferOptions: options)
        pipeline.events?.send(.created(request), id: controls.id)
    }

    /// A stream that failed before it could start.
    init(failed error: FerryError, pipeline: Pipeline) {
        request = Request(url: URL(fileURLWithPath: "/"))
        self.pipeline = pipeline
        registry = nil
        controls = TransferControls()
        state.withLock { $0.phase = .finished(.failure(error, request: nil)) }
        controls.downloadProgress.finish()
        controls.uploadProgress.finish()
    }

    /// The final head: opens the stream in this task when nobody did yet, else waits for it.
    func head() async -> Result<HTTPResponse, FerryError> {
        while true {
            enum Step { case open, wait, ready(Result<HTTPResponse, FerryError>) }
            let step: Step = state.withLock { state in
                switch state.phase {
                case .idle:
                    state.phase = .opening(waiters: [])
                    return .open
                case .opening: return .wait
                case .open(let opened, _): return .ready(.success(opened.head))
                case .finished(let outcome):
                    if let error = outcome.error { return .ready(.failure(error)) }
                    if let head = outcome.response { return .ready(.success(head)) }
                    return .ready(.failure(FerryError(.transport(.invalidResponse))))
                }
            }
            switch step {
            case .open: await open()
            case .ready(let result): return result
            case .wait:
                await withTaskCancellationHandler {
                    await withUnsafeContinuation { continuation in
                        let waiting = state.withLock { state in
                            guard case .opening(var waiters) = state.phase else { return false }
                            waiters.append(continuation)
                            state.phase = .opening(waiters: waiters)
                            return true
                        }
                        if !waiting { continuation.resume() }
                    }
                } onCancel: {
                    cancel()
                }
            }
        }
    }

    private func open() async {
        guard registry?.begin(self) ?? true else {
            return finish(.failure(FerryError(.sessionShutDown), request: request))
        }
        var exchange = Exchange(start: pipeline.timeouts.now)
        do {
            let opened = try await pipeline.open(request, controls: controls, exchange: &exchange)
            exchange.timeout?.pause()
            let waiters: [UnsafeContinuation<Void, Never>] = state.withLock { state in
                guard case .opening(let waiters) = state.phase else { return [] }
                state.phase = .open(opened, exchange)
                return waiters
            }
            for waiter in waiters { waiter.resume() }
            controls.downloadProgress.update(completed: 0, total: opened.head.expectedContentLength)
        } catch {
            exchange.close()
            finish(exchange.outcome(body: nil, error: error))
        }
    }

    /// Claims the one consumer slot; `false` when a consumer already claimed it.
    func claimConsumer() -> Bool {
        state.withLock { state in
            defer { state.consumerClaimed = true }
            return !state.consumerClaimed
        }
    }

    /// The next chunk of the body (the stream must be open); `nil` at its end.
    func next() async throws(FerryError) -> Data? {
        let current: (Pipeline.Opened, Exchange)? = state.withLock { state in
            guard case .open(let opened, let exchange) = state.phase else { return nil }
            state.reading = true
            return (opened, exchange)
        }
        defer { state.withLock { $0.reading = false } }
        guard let (opened, exchange) = current else {
            if case .finished(let outcome) = state.withLock({ $0.phase }), let error = outcome.error { throw error }
            return nil
        }
        do {
            if let error = controls.signal.error { throw error }
            exchange.timeout?.noteActivity()
            let chunk = try await opened.body.next()
            exchange.timeout?.pause()
            guard let chunk else {
                finish(success: opened)
                return nil
            }
            let received = state.withLock { state -> Int64 in
                guard case .open(let opened, var exchange) = state.phase else { return 0 }
                exchange.bytesReceived += Int64(chunk.count)
                state.phase = .open(opened, exchange)
                return exchange.bytesReceived
            }
            controls.downloadProgress.update(completed: received, total: opened.head.expectedContentLength)
            return chunk
        } catch {
            let failure = pipeline.failure(error, signal: controls.signal)
            opened.body.cancel()
            fail(failure)
            throw failure
        }
    }

    /// Waits until the body ended (or the stream failed); a body that nobody consumes is read and dropped.
    func completion() async -> TransferOutcome {
        if claimConsumer(), case .success = await head() {
            while (try? await next()) != nil {}
        }
        return await waitForFinish()
    }

    func waitUntilFinished() async {
        _ = await waitForFinish()
    }

    private func waitForFinish() async -> TransferOutcome {
        await withUnsafeContinuation { continuation in
            let ready: TransferOutcome? = state.withLock { state in
                if case .finished(let outcome) = state.phase { return outcome }
                state.finishWaiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Stops the stream: a consumer gets ``FerryError/Reason/cancelled`` after the chunks already buffered; a
    /// stream that has not started never will.
    func cancel() {
        reject(FerryError(.cancelled))
    }

    /// Ends the stream with `error` (a head that failed validation, a cancellation), as ``cancel()`` does.
    func reject(_ error: FerryError) {
        enum Action { case none, finishUnstarted, failUnread(Pipeline.Opened) }
        let action: Action = state.withLock { state in
            switch state.phase {
            case .idle: .finishUnstarted
            case .open(let opened, _) where !state.reading: .failUnread(opened)
            case .opening, .open, .finished: .none
            }
        }
        controls.signal.stop(error)
        switch action {
        case .none: break
        case .finishUnstarted: finish(.failure(error, request: request))
        case .failUnread(let opened):
            opened.body.cancel()
            fail(error)
        }
    }

    private func finish(success opened: Pipeline.Opened) {
        var exchange: Exchange? = state.withLock { state in
            if case .open(_, let exchange) = state.phase { exchange } else { nil }
        }
        finish(exchange?.outcome(body: nil, error: nil) ?? .failure(FerryError(.cancelled), request: request))
    }

    private func fail(_ error: FerryError) {
        var exchange: Exchange? = state.withLock { state in
            if case .open(_, let exchange) = state.phase { exchange } else { nil }
        }
        finish(exchange?.outcome(body: nil, error: error) ?? .failure(error, request: request))
    }

    private func finish(_ outcome: TransferOutcome) {
        registry?.end(self)
        let (headWaiters, finishWaiters, exchange, first):
            ([UnsafeContinuation<Void, Never>], [UnsafeContinuation<TransferOutcome, Never>], Exchange?, Bool) =
                state.withLock { state in
                    var headWaiters: [UnsafeContinuation<Void, Never>] = []
                    var exchange: Exchange?
                    switch state.phase {
                    case .finished: return ([], [], nil, false)
                    case .opening(let waiters): headWaiters = waiters
                    case .open(_, let open): exchange = open
                    case .idle: break
                    }
                    state.phase = .finished(outcome)
                    defer { state.finishWaiters = [] }
                    return (headWaiters, state.finishWaiters, exchange, true)
                }
        var held = exchange
        held?.close()
        if first { pipeline.events?.send(RequestEvent(finished: outcome), id: controls.id) }
        // The transport's stop handler holds its call, which holds the context, which holds the signal.
        controls.signal.removeHandler()
        controls.downloadProgress.finish()
        controls.uploadProgress.finish()
        for waiter in headWaiters { waiter.resume() }
        for waiter in finishWaiters { waiter.resume(returning: outcome) }
    }

    /// The request as it was sent once the stream is open (the session's defaults applied), else as it was made.
    var sentRequest: Request {
        state.withLock { state in
            switch state.phase {
            case .open(let opened, _): opened.prepared.request
            case .finished(let outcome): outcome.request ?? request
            case .idle, .opening: request
            }
        }
    }

    /// For tests: the unread bytes a URLSession body holds, `nil` once its call was stopped (or for other
    /// transports).
    var unreadByteCount: Int64? {
        let body: ResponseBody? = state.withLock { state in
            if case .open(let opened, _) = state.phase { opened.body } else { nil }
        }
        guard let call = (body?.source as? URLSessionBody)?.call, !call.isStopped else { return nil }
        return call.buffer.bufferedByteCount
    }

    var isFinished: Bool {
        state.withLock { if case .finished = $0.phase { true } else { false } }
    }
}
