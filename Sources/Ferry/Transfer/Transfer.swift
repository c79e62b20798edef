import Foundation

/// One request's life, whatever its kind, shared by every task value made from it: it is sent once, by the first
/// task that needs its head or its outcome, and its body is read by one task: the one that awaits the outcome, or a
/// stream's consumer. Every awaiter gets the same outcome.
///
/// Cancelling any awaiting task, or calling ``cancel()``, stops the transfer for all of them. Continuations are
/// resumed only after the lock is released. The phases are ``StateMachine``'s.
final class Transfer: Sendable {
    /// What the transfer does: a value rather than a closure, so that making a request allocates no closure context.
    enum Job: Sendable {
        /// A request whose body is read into memory.
        case data(Pipeline, Request)
        /// A request whose body is written to a file.
        case download(Pipeline, Request, DownloadTarget, resuming: ResumeData?)
        /// A request whose body is read chunk by chunk by one consumer (or read and dropped when it has none).
        case stream(Pipeline, Request)
        /// A request that failed before it could start.
        case failed(FerryError)
    }

    /// A request whose final head arrived: what reading its body needs.
    typealias Opened = Pipeline.Opened

    /// A final head as a validation judged it: the pipeline's, read from the opened request, or a finished outcome's.
    struct JudgedHead: Sendable {
        var response: HTTPResponse
        /// The request as sent.
        var request: Request
        /// The validation that judged it (the opening task's).
        var validation: Validation
        /// Its verdict, when it rejected the head.
        var rejection: FerryError?

        /// The head as `validation` judges it: the pipeline's verdict when it is the same rule, else judged again
        /// (status and declared content type).
        func verdict(for validation: Validation) -> Result<HTTPResponse, FerryError> {
            if validation.isSameRule(as: self.validation) {
                return rejection.map { .failure($0) } ?? .success(response)
            }
            do throws(FerryError) {
                try validation.validateHead(response, for: request)
                return .success(response)
            } catch {
                return .failure(error)
            }
        }
    }

    typealias Waiter = UnsafeContinuation<Void, Never>
    /// The opened request stands for its judged head too (``Pipeline/Opened/judgedHead``): its fields do not change,
    /// and a reference keeps the phases small. With the head as a value (137 bytes) in them, every question about the
    /// phase copied it into the async frame of the task that asked, several times: `Transfer.outcome`'s frame was
    /// 4,112 bytes (Benchmarks/README.md, "The request's async frames").
    private typealias Machine = StateMachine<Waiter, Opened, Opened>

    let controls: TransferControls
    let job: Job
    private let registry: TransferRegistry?
    private let state = Locked(Machine())

    /// A transfer that runs `job` when first needed.
    init(_ job: Job, controls: TransferControls = TransferControls(), registry: TransferRegistry?) {
        self.controls = controls
        self.registry = registry
        self.job = job
        switch job {
        case .data(let pipeline, let request), .download(let pipeline, let request, _, _),
            .stream(let pipeline, let request):
            self.pipeline = pipeline
            self.request = request
        case .failed:
            pipeline = nil
            request = nil
        }
        observers = pipeline?.observers ?? []
        if let request { observers.observe(.created(request), id: controls.id) }
    }

    /// A transfer that failed before it could start: finished at once.
    convenience init(failed error: FerryError) {
        self.init(.failed(error), registry: nil)
        finish(.failure(error, request: nil))
    }

    /// The request as it was made (`nil` for one that failed before it could start).
    let request: Request?
    /// The session's pipeline (`nil` for one that failed before it could start).
    let pipeline: Pipeline?
    /// Who watches the transfer.
    private let observers: [any TransferObserver]

    // MARK: Awaiting

    /// The outcome: sends the request in this task when nobody did, reads the body when nobody does (a stream's
    /// body that has no consumer is read and dropped), else waits. Cancelling this task stops the transfer.
    /// - Parameter validation: The awaiting task's validation, applied by the pipeline if this task sends the request.
    func outcome(validation: Validation) async -> TransferOutcome {
        while true {
            switch state.withLock({ $0.claim(.outcome) }) {
            case .open: await open(validation: validation, keepReading: true)
            case .read(let opened): await read(opened)
            case .head, .wait: await wait(for: .outcome)
            case .finished(let outcome): return outcome
            }
        }
    }

    /// The final head, as the pipeline judged it: sends the request in this task when nobody did, else waits for the
    /// head. The body is left for whoever awaits the outcome (or a stream's consumer).
    /// - Parameter validation: The awaiting task's validation, applied by the pipeline if this task sends the request.
    func head(validation: Validation) async -> Result<HTTPResponse, FerryError> {
        while true {
            switch state.withLock({ $0.claim(.head) }) {
            case .open: await open(validation: validation, keepReading: false)
            case .head(let opened): return opened.judgedHead.verdict(for: validation)
            case .read: preconditionFailure("a head claim never reads")
            case .wait: await wait(for: .head)
            case .finished(let outcome): return outcome.head(for: validation)
            }
        }
    }

    /// Starts the transfer on a task of its own when nobody started it: for ``DataTask/resume()`` and a progress
    /// stream iterated before anyone awaits. The task awaits the outcome; a later awaiter joins it.
    func start(validation: Validation) {
        guard peek(\.isIdle) else { return }
        Task { _ = await outcome(validation: validation) }
    }

    /// Starts a stream on a task of its own, up to its head: ``StreamTask/resume()``.
    func startHead(validation: Validation) {
        guard peek(\.isIdle) else { return }
        Task { _ = await head(validation: validation) }
    }

    /// Waits until the transfer finished, without starting it or reading its body.
    func waitUntilFinished() async {
        while peek(\.isRunning) {
            await wait(for: .end)
        }
    }

    /// Reads the state: the one place a question about it takes the lock.
    private func peek<Value: Sendable>(_ question: KeyPath<Machine, Value> & Sendable) -> Value {
        state.withLock { $0[keyPath: question] }
    }

    private func wait(for need: Machine.Need) async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                if case .retry = state.withLock({ $0.wait(continuation, for: need) }) { continuation.resume() }
            }
        } onCancel: {
            if need != .end { cancel() }
        }
    }

    // MARK: Stopping

    /// Stops the transfer; one that has not started never will. Awaiters get ``FerryError/Reason/cancelled``
    /// unless it already finished.
    func cancel() {
        stop(FerryError(.cancelled))
    }

    /// Stops the transfer with `error` (a cancellation, a session shutdown).
    func stop(_ error: FerryError) {
        let action = state.withLock { state in
            state.cancel(cancelledOutcome: .failure(error, request: self.request))
        }
        controls.signal.stop(error)
        apply(action, error: error)
    }

    /// Every task value is gone: a body that waits for a reader (a stream nobody consumes, a head-only await)
    /// can never be read, so it is dropped.
    func abandon() {
        let action = state.withLock { $0.abandon() }
        if case .none = action { return }  // the common case: the transfer ran, or runs on; no error to make
        apply(action, error: FerryError(.cancelled))
    }

    private func apply(_ action: Machine.CancelAction, error: FerryError) {
        switch action {
        case .none, .stop: break
        case .drop(let opened):
            controls.signal.stop(error)
            opened.body.cancel()
            opened.exchange.close()
            finish(opened.exchange.outcome(body: nil, error: controls.signal.error ?? error), opened: opened)
        case .finished(let waiters, let outcome):
            observers.observe(RequestEvent(finished: outcome), id: controls.id)
            controls.finishProgress()
            for waiter in waiters { waiter.resume() }
        }
    }

    // MARK: The phases

    /// Sends the request (the first task that needed it), then reads the body on when `keepReading` and nobody else
    /// must read it.
    private func open(validation: Validation, keepReading: Bool) async {
        guard let pipeline else { return finish(.failure(FerryError(.cancelled), request: nil)) }
        guard registry?.begin(self) ?? true else {
            return finish(.failure(FerryError(.sessionShutDown), request: request))
        }
        if let request { observers.started(request, id: controls.id) }
        await open(pipeline, validation: validation, keepReading: keepReading)
    }

    /// Sends the request and hands the body on, reading it when `keepReading` and nobody else must.
    private func open(_ pipeline: Pipeline, validation: Validation, keepReading: Bool) async {
        let exchange = Exchange(start: Moment(pipeline.timeouts.now))
        var request = request ?? Request(url: URL(fileURLWithPath: "/"))
        var file: DownloadFile?
        var cache: HTTPCache?
        switch job {
        case .data, .download(_, _, _, nil): cache = pipeline.configuration.cache
        // A stream's body goes to its reader as it comes: never looked up or stored, but an unsafe request still
        // invalidates (§4.4). A resumed download asks for a range: it goes to the server as it is.
        case .stream where !CacheInvalidation.safeMethods.contains(request.method): cache = pipeline.configuration.cache
        default: break
        }
        if case .download(_, _, _, let resume) = job {
            let prepared = Pipeline.prepareDownload(request, resuming: resume)
            request = prepared.request
            file = prepared.file
        }
        let open: Opened
        do {
            open = try await pipeline.open(
                request, validation: validation, controls: controls, exchange: exchange, file: file, cache: cache)
        } catch {
            exchange.close()
            var outcome = exchange.outcome(body: nil, error: error)
            if let file { outcome = pipeline.finishDownload(outcome, file: file, written: 0, target: target) }
            return finish(outcome)
        }
        if case .stream = job {
            exchange.timeout?.pause()
            // A stream's body goes to its consumer: the body's checks run now, on an empty body.
            if let rejection = open.rejection ?? Self.bodyRejection(of: open, by: validation) {
                open.body.cancel()
                exchange.close()
                let outcome = exchange.outcome(body: nil, error: rejection)
                outcome.validation = validation
                outcome.isRejection = true
                return finish(outcome)
            }
            controls.downloadProgress.update(completed: 0, total: open.head.expectedContentLength)
        }
        switch state.withLock({ $0.opened(open, body: open, keepReading: keepReading) }) {
        case .read(let waiters):
            for waiter in waiters { waiter.resume() }
            await read(open)
        case .resume(let waiters):
            for waiter in waiters { waiter.resume() }
            // A stop that came while the head was on its way ends a body nobody reads yet.
            if let error = controls.signal.error { stop(error) }
        case .drop:
            apply(.drop(open), error: FerryError(.cancelled))
        }
    }

    /// The body's checks of `validation` on an empty body (a stream's, whose body goes to its consumer).
    private static func bodyRejection(of opened: Opened, by validation: Validation) -> FerryError? {
        do throws(FerryError) {
            try validation.validateBody(Data(), length: 0, of: opened.head, for: opened.prepared.request)
            return nil
        } catch {
            return error
        }
    }

    /// Reads the body, as the job says, and finishes the transfer.
    @discardableResult
    private func read(_ opened: Opened) async -> TransferOutcome {
        let outcome: TransferOutcome
        switch job {
        case .data(let pipeline, _):
            outcome = await pipeline.readData(opened, controls: controls)
        case .download(let pipeline, _, let target, _):
            outcome = await pipeline.readDownload(opened, target: target, controls: controls)
        case .stream:
            outcome = await drain(opened)
        case .failed(let error):
            outcome = .failure(error, request: nil)
        }
        finish(outcome, opened: opened)
        return outcome
    }

    private var target: DownloadTarget {
        if case .download(_, _, let target, _) = job { return target }
        preconditionFailure("only a download has a target")
    }

    /// Ends the transfer with `outcome`; only the first call counts.
    func finish(_ outcome: TransferOutcome, opened: Opened? = nil) {
        if let opened {
            outcome.opened = true
            outcome.validation = opened.validation
            if outcome.error == nil, let rejection = opened.rejection {
                outcome.error = rejection.adding(
                    request: outcome.request, response: outcome.response, body: outcome.body)
                outcome.isRejection = true
            }
        }
        registry?.end(self)
        // The transport's stop handler holds its call, which holds the context, which holds the controls and so the
        // signal: the cycle ends with the transfer.
        controls.signal.removeHandler()
        let waiters = state.withLock { $0.finish(outcome) }
        observers.observe(RequestEvent(finished: outcome), id: controls.id)
        controls.finishProgress()
        for waiter in waiters { waiter.resume() }
    }

    // MARK: A stream's consumer

    /// Claims a stream's body for its one consumer; `false` when it was claimed already.
    func claimConsumer() -> Bool {
        state.withLock { $0.claimConsumer() }
    }

    /// The next chunk of a stream's body, read in the consumer's task (the head must have arrived); `nil` at its end.
    func next() async throws(FerryError) -> Data? {
        let opened: Opened
        taking: while true {
            switch state.withLock({ $0.takeBody() }) {
            case .read(let body):
                opened = body
                break taking
            case .waitForEnd: await waitUntilFinished()
            case .ended(let error):
                if let error { throw error }
                return nil
            }
        }
        let chunk: Data?
        do {
            chunk = try await nextChunk(of: opened)
        } catch {
            finish(opened.exchange.outcome(body: nil, error: error), opened: opened)
            throw error
        }
        guard let chunk else {
            opened.exchange.close()
            finish(opened.exchange.outcome(body: nil, error: nil), opened: opened)
            return nil
        }
        let handedBack = state.withLock { $0.returnBody(opened, stopped: controls.signal.error != nil) }
        if !handedBack {
            let error = controls.signal.error ?? FerryError(.cancelled)
            opened.body.cancel()
            opened.exchange.close()
            finish(opened.exchange.outcome(body: nil, error: error), opened: opened)
        }
        return chunk
    }

    /// Reads one chunk, counting it; throws the stop's reason after a stop.
    private func nextChunk(of opened: Opened) async throws(FerryError) -> Data? {
        do {
            if let error = controls.signal.error { throw error }
            opened.exchange.timeout?.noteActivity()
            let chunk = try await opened.body.next()
            opened.exchange.timeout?.pause()
            if let chunk {
                opened.exchange.bytesReceived += Int64(chunk.count)
                controls.downloadProgress.update(
                    completed: opened.exchange.bytesReceived, total: opened.head.expectedContentLength)
            }
            return chunk
        } catch {
            opened.body.cancel()
            opened.exchange.close()
            throw pipeline?.failure(error, signal: controls.signal) ?? FerryError.mapping(error)
        }
    }

    /// Reads a stream's body to its end and drops it: the outcome of a stream that has no consumer.
    private func drain(_ opened: Opened) async -> TransferOutcome {
        do {
            while try await nextChunk(of: opened) != nil {}
        } catch {
            return opened.exchange.outcome(body: nil, error: error)
        }
        opened.exchange.close()
        return opened.exchange.outcome(body: nil, error: nil)
    }

    /// The request as it was sent once the head arrived (the session's defaults applied), else as it was made.
    var sentRequest: Request? {
        if let body = peek(\.waitingBody) { return body.prepared.request }
        return peek(\.outcome)?.request ?? request
    }

    var isFinished: Bool { peek(\.isFinished) }

    /// For tests: the unread bytes a URLSession body holds between two reads of its consumer, `nil` once its call
    /// was stopped (or for other transports).
    var unreadByteCount: Int64? {
        let body = peek(\.waitingBody)
        guard let call = (body?.body.source as? URLSessionBody)?.call, !call.isStopped else { return nil }
        return call.buffer.bufferedByteCount
    }
}

extension Pipeline.Opened {
    /// The final head as the pipeline judged it, with the opening task's validation.
    var judgedHead: Transfer.JudgedHead {
        Transfer.JudgedHead(response: head, request: prepared.request, validation: validation, rejection: rejection)
    }
}
