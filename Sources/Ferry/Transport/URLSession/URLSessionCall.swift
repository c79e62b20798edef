import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `send` on a URLSession: turns the delegate's callbacks into a head for the pipeline and a pulled body.
/// The lock-held logic is ``StateMachine``; continuations are resumed and tasks cancelled after the lock is
/// released, and `cancel()` is dispatched (never called from inside `onCancel`, which deadlocks
/// FoundationNetworking).
final class URLSessionCall: Sendable {
    typealias HeadContinuation = CheckedContinuation<HTTPResponse, any Error>

    let context: TransportContext
    /// The body between the delegate's pushes and the pipeline's pulls.
    let buffer: StreamBuffer
    private let decompressionLimit: URLSessionTransport.DecompressionLimit
    /// The most decoded body bytes accepted (`.max` until a compressed head sets it) and the count so far; both
    /// touched only by delegate callbacks, which the session's serial delegate queue runs one at a time.
    private let decodedLimit = Atomic<Int64>(.max)
    private let decoded = Atomic<Int64>(0)
    private let state = Locked(StateMachine<URLSessionTask, HeadContinuation>())
    private let challenged = Atomic(false)
    private let stopped = Atomic(false)

    /// Whether Ferry stopped the call (as opposed to URLSession completing it).
    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    init(context: TransportContext, decompressionLimit: URLSessionTransport.DecompressionLimit) {
        self.context = context
        self.decompressionLimit = decompressionLimit
        self.buffer = StreamBuffer(options: context.bufferOptions ?? StreamOptions(bufferSize: .max, overflow: .fail))
    }

    /// Starts `task` unless the call was stopped first.
    func start(_ task: URLSessionTask, continuation: HeadContinuation) {
        switch state.withLock({ $0.start(task, continuation: continuation) }) {
        case .resume: task.resume()
        case .fail(let continuation, let error): continuation.resume(throwing: error)
        }
    }

    /// The head arrived. From now on chunks go to the buffer; the pipeline is woken by `deliver`, which runs the
    /// wake-up behind the delegate callbacks already queued, so a small response's body and end are usually there
    /// by then: one wake-up instead of three.
    func receive(_ head: HTTPResponse, deliver: (@escaping @Sendable () -> Void) -> Void) {
        context.noteActivity()
        if let limit = decompressionLimit.decodedLimit(for: head) { decodedLimit.store(limit, ordering: .relaxed) }
        guard let continuation = state.withLock({ $0.receiveHead() }) else { return }
        deliver { continuation.resume(returning: head) }
    }

    /// A body chunk arrived (decoded, if the body was compressed).
    func receive(_ chunk: Data) {
        context.noteActivity()
        let total = decoded.add(Int64(chunk.count), ordering: .relaxed).newValue
        guard total <= decodedLimit.load(ordering: .relaxed) else {
            // A decompression bomb: stop before the bytes reach the buffer; libcurl's task is cancelled.
            return stop(FerryError(.decompressionLimitExceeded))
        }
        do {
            try buffer.push(chunk)
        } catch {
            stop(error)
        }
    }

    /// Ends the call with `error` and cancels the task asynchronously, unless it already completed.
    func stop(_ error: FerryError) {
        let action = state.withLock { $0.stop(error) }
        if case .none = action { return }
        stopped.store(true, ordering: .relaxed)
        switch action {
        case .none:
            return
        case .failHead(let continuation, let task):
            continuation.resume(throwing: error)
            buffer.finish(error)
            DispatchQueue.global().async { task.cancel() }
        case .failBody(let task):
            buffer.finish(error)
            DispatchQueue.global().async { task.cancel() }
        }
    }

    /// Ends the call as URLSession reported it.
    func complete(task: URLSessionTask, error: (any Error)?) {
        switch state.withLock({ $0.complete() }) {
        case .none:
            return
        case .endBody:
            // A challenge Ferry declined ends as a cancellation: the 401 already announced is the answer.
            let declined = challenged.load(ordering: .relaxed)
            buffer.finish(declined ? nil : error.map { FerryError.mapping($0) })
            context.noteBodyComplete()
        case .completeWithoutHead(let continuation):
            // FoundationNetworking completes some responses without announcing them through `didReceive
            // response`: a 3xx without `Location`, and a 401 whose challenge Ferry declined (a cancellation).
            let answered = error == nil || challenged.load(ordering: .relaxed)
            if answered, let http = task.response as? HTTPURLResponse, let head = HTTPResponse(http) {
                buffer.finish(Self.lostBody(of: head, method: task.originalRequest?.httpMethod))
                continuation.resume(returning: head)
            } else {
                let failure =
                    error.map { FerryError.mapping(urlSessionError: $0, url: task.originalRequest?.url) }
                    ?? FerryError(.transport(.invalidResponse))
                buffer.finish(failure)
                continuation.resume(throwing: failure)
            }
        }
    }

    /// FoundationNetworking keeps the body of a 301 to 308 aside for a redirect and, when there is no `Location` to
    /// follow, never hands it over: the head arrives, the body does not. When the head says there was one, the body
    /// fails loudly rather than reading as empty (cache-tests.fyi's `status-30x-*` found it).
    static func lostBody(of head: HTTPResponse, method: String?) -> FerryError? {
        guard (301...308).contains(head.statusCode), head.statusCode != 304, method != "HEAD",
            !head.headers.contains("Location")
        else { return nil }
        let length = head.headers["Content-Length"].flatMap { Int64($0.trimmingOWS) } ?? 0
        let chunked = head.headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true
        guard length > 0 || chunked else { return nil }
        return FerryError(
            .unsupportedSetting(
                setting:
                    "the body of a \(head.statusCode) response without a Location field, which FoundationNetworking drops",
                remedy: "read it with AsyncHTTPClientTransport"),
            response: head)
    }

    func recordSent(_ total: Int64, expected: Int64, bodyCount: Int64?) {
        // FoundationNetworking reports 0 (not -1) as the expected size of a streamed body.
        context.noteSent(totalBytesSent: total, expected: expected > 0 ? expected : bodyCount)
    }

    func recordChallenge() {
        challenged.store(true, ordering: .relaxed)
    }
}

/// The body of a URLSession response, pulled from the call's buffer.
struct URLSessionBody: ResponseBodySource {
    let call: URLSessionCall

    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await call.buffer.next()
        } onCancel: { [call] in
            call.stop(FerryError(.cancelled))
        }
    }

    func cancel() {
        call.stop(FerryError(.cancelled))
        call.buffer.close()
    }
}

extension HTTPResponse {
    /// The head of a URLSession response.
    init?(_ response: HTTPURLResponse) {
        guard let url = response.url else { return nil }
        var headers = HTTPHeaders()
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            // FoundationNetworking joins repeated fields with ", ": split `Set-Cookie` back, whose values may not be
            // joined (RFC 9110 §5.3). Other repeated fields stay joined, which means the same for them.
            if name.equalsIgnoringASCIICase("Set-Cookie") {
                for cookie in SetCookieSplitter.split(value) { headers.add(name: name, value: cookie) }
            } else {
                headers.add(name: name, value: value)
            }
        }
        self.init(statusCode: response.statusCode, headers: headers, url: url)
    }
}
