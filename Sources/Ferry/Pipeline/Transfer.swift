import Foundation
import Synchronization

/// What a finished transfer produced, before validation and serialization.
struct TransferOutcome: Sendable {
    var request: Request?
    var response: HTTPResponse?
    var body: Data?
    var error: FerryError?
    var metrics: Metrics
    var timeline: Timeline
    /// A download's file at its destination, once placed.
    var file: URL?
    /// How to resume a download that failed part-way.
    var resumeData: ResumeData?

    static func failure(_ error: FerryError, request: Request?) -> TransferOutcome {
        let now = ContinuousClock.now
        let timeline = Timeline(startDate: Date(), requestStart: now, firstResponseByte: nil, requestCompleted: now)
        return TransferOutcome(request: request, error: error, metrics: Metrics(), timeline: timeline)
    }
}

/// One request's transfer, shared by every ``DataTask`` made from it: it runs once, and every awaiter gets the
/// same outcome.
///
/// A three-state machine under a lock: running (with the Swift task once attached, and the awaiters), cancelled
/// before the task was attached, and finished. Continuations are resumed only after the lock is released.
final class Transfer: Sendable {
    private enum State {
        case running(task: Task<Void, Never>?, waiters: [UnsafeContinuation<TransferOutcome, Never>])
        case cancelRequested(waiters: [UnsafeContinuation<TransferOutcome, Never>])
        case finished(TransferOutcome)
    }

    let id: UInt64
    private let state: Mutex<State>
    /// The response body's progress.
    let downloadProgress = ProgressReporter()
    /// The request body's progress.
    let uploadProgress = ProgressReporter()

    init(id: UInt64) {
        self.id = id
        self.state = Mutex(.running(task: nil, waiters: []))
    }

    init(id: UInt64, finished outcome: TransferOutcome) {
        self.id = id
        self.state = Mutex(.finished(outcome))
        downloadProgress.finish()
        uploadProgress.finish()
    }

    /// Attaches the Swift task that runs the transfer; cancels it at once when cancellation came first.
    func attach(_ task: Task<Void, Never>) {
        let cancelNow: Bool = state.withLock { state in
            switch state {
            case .running(_, let waiters):
                state = .running(task: task, waiters: waiters)
                return false
            case .cancelRequested(let waiters):
                state = .running(task: task, waiters: waiters)
                return true
            case .finished:
                return false
            }
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels the transfer. Awaiters get an outcome whose error is ``FerryError/Reason/cancelled`` once the
    /// transport has stopped.
    func cancel() {
        let task: Task<Void, Never>? = state.withLock { state in
            switch state {
            case .running(let task?, _):
                return task
            case .running(nil, let waiters):
                state = .cancelRequested(waiters: waiters)
                return nil
            case .cancelRequested, .finished:
                return nil
            }
        }
        task?.cancel()
    }

    /// The error of a transfer that already finished with one (a session that was shut down).
    var finishedError: FerryError? {
        state.withLock { if case .finished(let outcome) = $0 { outcome.error } else { nil } }
    }

    var isFinished: Bool {
        state.withLock { if case .finished = $0 { true } else { false } }
    }

    /// Records the outcome and resumes every awaiter. Only the first call counts.
    func finish(_ outcome: TransferOutcome) {
        let waiters: [UnsafeContinuation<TransferOutcome, Never>] = state.withLock { state in
            switch state {
            case .running(_, let waiters), .cancelRequested(let waiters):
                state = .finished(outcome)
                return waiters
            case .finished:
                return []
            }
        }
        downloadProgress.finish()
        uploadProgress.finish()
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Waits for the outcome. Cancelling the awaiting task cancels the transfer.
    func outcome() async -> TransferOutcome {
        if case .finished(let outcome) = state.withLock({ $0 }) { return outcome }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let ready: TransferOutcome? = state.withLock { state in
                    switch state {
                    case .running(let task, var waiters):
                        waiters.append(continuation)
                        state = .running(task: task, waiters: waiters)
                        return nil
                    case .cancelRequested(var waiters):
                        waiters.append(continuation)
                        state = .cancelRequested(waiters: waiters)
                        return nil
                    case .finished(let outcome):
                        return outcome
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }
}
