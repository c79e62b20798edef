import Foundation

#if Tracing
import Tracing
#endif

/// One request's transfer, shared by every task value made from it: it runs once, in the task that first awaits
/// it, and every awaiter gets the same outcome.
///
/// Cancelling any awaiting task, or calling ``cancel()``, stops the transfer for all of them. Continuations are
/// resumed only after the lock is released.
final class Transfer: Sendable {
    /// What the transfer does when it runs: a value rather than a closure, so that making a request allocates no
    /// closure context.
    enum Job: Sendable {
        /// A request whose body is read into memory.
        case data(Pipeline, Request)
        /// A request whose body is written to a file.
        case download(Pipeline, Request, DownloadTarget, resuming: ResumeData?)
        /// A request that failed before it could start.
        case failed(FerryError)
    }

    let controls: TransferControls
    private let request: Request?
    private let registry: TransferRegistry?
    private let job: Job
    /// Where the transfer's events go: read once from the session, never by copying the pipeline out of the job.
    private let events: EventDelivery?
    private let state = Locked(StateMachine<UnsafeContinuation<TransferOutcome, Never>>())

    /// A transfer that runs `job` when first awaited.
    init(
        _ job: Job, controls: TransferControls = TransferControls(), registry: TransferRegistry?,
        events: EventDelivery? = nil
    ) {
        switch job {
        case .data(_, let request), .download(_, let request, _, _): self.request = request
        case .failed: request = nil
        }
        self.controls = controls
        self.registry = registry
        self.job = job
        self.events = events
        if let events, let request { events.send(.created(request), id: controls.id) }
    }

    /// A transfer that failed before it could start.
    convenience init(failed error: FerryError) {
        self.init(.failed(error), registry: nil)
    }

    /// The outcome: runs the transfer in this task when nobody started it, else waits for it. Cancelling this
    /// task stops the transfer.
    nonisolated(nonsending) func outcome() async -> TransferOutcome {
        switch state.withLock({ $0.claim() }) {
        case .run: return await runHere()
        case .finished(let outcome): return outcome
        case .wait: return await waitForOutcome()
        }
    }

    /// Starts the transfer on a task of its own, for a caller that will not await it.
    func resume() {
        Task { _ = await outcome() }
    }

    /// Stops the transfer; one that has not started never will. Awaiters get ``FerryError/Reason/cancelled``
    /// unless it already finished.
    func cancel() {
        let action = state.withLock { state in
            state.cancel(cancelledOutcome: .failure(FerryError(.cancelled), request: request))
        }
        switch action {
        case .none: break
        case .stop: controls.signal.stop(FerryError(.cancelled))
        case .finished(let waiters, let outcome):
            events?.send(RequestEvent(finished: outcome), id: controls.id)
            finishProgress()
            for waiter in waiters { waiter.resume(returning: outcome) }
        }
    }

    /// Waits until the transfer finished, without starting it.
    nonisolated(nonsending) func waitUntilFinished() async {
        guard state.withLock({ $0.isRunning }) else { return }
        _ = await waitForOutcome()
    }

    nonisolated(nonsending) private func runHere() async -> TransferOutcome {
        let outcome: TransferOutcome
        if let registry, !registry.begin(self) {
            outcome = .failure(FerryError(.sessionShutDown), request: request)
        } else {
            outcome = await perform()
            registry?.end(self)
        }
        // The transport's stop handler holds its call, which holds the context, which holds the signal: the cycle
        // ends with the transfer.
        controls.signal.removeHandler()
        let waiters = state.withLock { $0.finish(outcome) }
        events?.send(RequestEvent(finished: outcome), id: controls.id)
        finishProgress()
        for waiter in waiters { waiter.resume(returning: outcome) }
        return outcome
    }

    nonisolated(nonsending) private func perform() async -> TransferOutcome {
        #if Tracing
        let tracer: (any Tracer)? =
            switch job {
            case .data(let pipeline, _), .download(let pipeline, _, _, _): pipeline.configuration.tracer
            case .failed: nil
            }
        return await RequestTracing.traced(request, tracer: tracer) { await run() }
        #else
        return await run()
        #endif
    }

    nonisolated(nonsending) private func run() async -> TransferOutcome {
        switch job {
        case .data(let pipeline, let request):
            await pipeline.runData(request, controls: controls)
        case .download(let pipeline, let request, let target, let resumeData):
            await pipeline.runDownload(request, to: target, resuming: resumeData, controls: controls)
        case .failed(let error):
            .failure(error, request: nil)
        }
    }

    nonisolated(nonsending) private func waitForOutcome() async -> TransferOutcome {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                if case .resume(let outcome) = state.withLock({ $0.wait(continuation) }) {
                    continuation.resume(returning: outcome)
                }
            }
        } onCancel: {
            cancel()
        }
    }

    private func finishProgress() {
        controls.downloadProgress.finish()
        controls.uploadProgress.finish()
    }
}
