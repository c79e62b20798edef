import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `send` on a URLSession: a small state machine that makes sure the continuation is resumed exactly once and
/// the URLSession task is cancelled at most once, never after it completed, and never from inside `onCancel`.
final class URLSessionCall: Sendable {
    private enum State {
        case idle
        case cancelledBeforeStart(FerryError)
        case running(task: URLSessionTask, continuation: CheckedContinuation<TransportReport, any Error>)
        case finished
    }

    let sink: ResponseSink
    private let bodyCount: Int64
    private let state = Mutex(State.idle)
    private let progress = Mutex((bytesSent: Int64(0), challenged: false))

    init(sink: ResponseSink, bodyCount: Int64) {
        self.sink = sink
        self.bodyCount = bodyCount
    }

    /// Creates and registers the task unless the call was cancelled first; returns the task to resume.
    func begin(
        continuation: CheckedContinuation<TransportReport, any Error>,
        router: URLSessionEventRouter,
        makeTask: () -> URLSessionTask?
    ) -> URLSessionTask? {
        let outcome: Result<URLSessionTask, FerryError>? = state.withLock { state in
            switch state {
            case .idle:
                guard let task = makeTask() else {
                    state = .finished
                    return .failure(FerryError(.sessionShutDown))
                }
                router.register(self, for: task.taskIdentifier)
                state = .running(task: task, continuation: continuation)
                return .success(task)
            case .cancelledBeforeStart(let error):
                state = .finished
                return .failure(error)
            case .running, .finished:
                return nil
            }
        }
        switch outcome {
        case .success(let task): return task
        case .failure(let error):
            continuation.resume(throwing: error)
            return nil
        case nil: return nil
        }
    }

    /// Ends the call with `error` (cancellation, a sink that refused a chunk) and cancels the task
    /// asynchronously, unless it already completed.
    func fail(_ error: FerryError, router: URLSessionEventRouter) {
        let running: (URLSessionTask, CheckedContinuation<TransportReport, any Error>)? = state.withLock { state in
            switch state {
            case .idle:
                state = .cancelledBeforeStart(error)
                return nil
            case .running(let task, let continuation):
                state = .finished
                return (task, continuation)
            case .cancelledBeforeStart, .finished:
                return nil
            }
        }
        guard let (task, continuation) = running else { return }
        router.unregister(task.taskIdentifier)
        continuation.resume(throwing: error)
        DispatchQueue.global().async { task.cancel() }
    }

    /// Ends the call as URLSession reported it.
    func complete(task: URLSessionTask, error: (any Error)?) {
        let continuation: CheckedContinuation<TransportReport, any Error>? = state.withLock { state in
            guard case .running(_, let continuation) = state else { return nil }
            state = .finished
            return continuation
        }
        guard let continuation else { return }
        let (sent, challenged) = progress.withLock { ($0.bytesSent, $0.challenged) }
        let report = TransportReport(bytesSent: max(sent, error == nil ? bodyCount : sent))
        if let error {
            // A challenge Ferry declined comes back as a cancellation: the 401 is the answer.
            if challenged, let http = task.response as? HTTPURLResponse, let head = HTTPResponse(http) {
                do {
                    if sink.head == nil { try sink.receive(head) }
                    continuation.resume(returning: report)
                } catch {
                    continuation.resume(throwing: error)
                }
                return
            }
            continuation.resume(throwing: error)
        } else {
            // FoundationNetworking completes some responses (a 3xx without `Location`) without announcing them
            // through `didReceive response`: take the head from the task.
            if sink.head == nil, let http = task.response as? HTTPURLResponse, let head = HTTPResponse(http) {
                do {
                    try sink.receive(head)
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
            }
            continuation.resume(returning: report)
        }
    }

    func recordSent(_ total: Int64, expected: Int64) {
        progress.withLock { $0.bytesSent = max($0.bytesSent, total) }
        // FoundationNetworking reports 0 (not -1) as the expected size of a streamed body.
        sink.noteSent(totalBytesSent: total, expected: expected > 0 ? expected : (bodyCount > 0 ? bodyCount : nil))
    }

    func recordChallenge() {
        progress.withLock { $0.challenged = true }
    }
}

extension HTTPResponse {
    /// The head of a URLSession response.
    init?(_ response: HTTPURLResponse) {
        guard let url = response.url else { return nil }
        var headers = HTTPHeaders()
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            headers.add(name: name, value: value)
        }
        self.init(statusCode: response.statusCode, headers: headers, url: url)
    }
}
