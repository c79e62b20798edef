import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: URLSession, driven through its delegate API.
///
/// It avoids what breaks in FoundationNetworking on Linux (see the README's "Linux: what Ferry does about FoundationNetworking"): it never uses
/// URLSession's async `data(for:)` (which deadlocks when cancellation races completion), cancels each task at
/// most once and never after completion, answers every authentication challenge (a 401 would otherwise hang),
/// lets Ferry follow redirects, disables URLSession's cache and cookies, and never creates a task on an invalidated session.
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let router: URLSessionEventRouter
    /// Where tasks are made and resumed, off the cooperative pool.
    private let taskQueue = DispatchQueue(label: "Ferry.URLSessionTransport.tasks")
    private let lifecycle = Locked(Lifecycle())
    /// How far a compressed body may expand.
    public let decompressionLimit: DecompressionLimit

    /// Orders task creation against invalidation without holding a lock while Foundation creates a task (which
    /// waits for the session's busy work queue): creators are counted, and invalidation waits for the last one.
    private struct Lifecycle {
        var invalidated = false
        var creating = 0
        var invalidationPending = false
    }

    /// Creates a transport with its own URLSession.
    /// - Parameters:
    ///   - configuration: The URLSession configuration (copied); `.ephemeral` by default. Ferry turns off its URL
    ///     cache and its cookie handling (``Session/Configuration/cookieJar`` handles cookies on every transport).
    ///   - decompressionLimit: How far a compressed body may expand before the request fails with
    ///     ``FerryError/Reason/decompressionLimitExceeded``; ``DecompressionLimit/default`` by default.
    public init(
        configuration: URLSessionConfiguration = .ephemeral, decompressionLimit: DecompressionLimit = .default
    ) {
        self.decompressionLimit = decompressionLimit
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Cookies are the session's `CookieJar`'s business, on every transport: URLSession neither stores nor sends
        // any (`.ephemeral` would otherwise keep a private store, `.default` the shared one).
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        let queue = OperationQueue()
        queue.name = "Ferry.URLSessionTransport"
        queue.maxConcurrentOperationCount = 1
        router = URLSessionEventRouter()
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    deinit {
        invalidate()
    }

    /// Sends `request` with a URLSession data task; returns when the head arrived.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - context: Where activity and progress go, and how Ferry stops the request.
    /// - Returns: The head, and the body as it arrives.
    /// - Throws: ``FerryError`` or `URLError`.
    public func send(_ request: Request, context: TransportContext) async throws -> TransportResponse {
        let urlRequest = Self.urlRequest(for: request)
        let file = Self.uploadFile(of: request)
        let call = URLSessionCall(context: context, decompressionLimit: decompressionLimit)
        context.onStop { [call] error in call.stop(error) }
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: URLSessionCall.HeadContinuation) in
                // Creating and resuming a task wait for FoundationNetworking's work queue (`sync`): never on the
                // caller's thread, which belongs to Swift's cooperative pool (two threads on a two-core machine).
                taskQueue.async { [self] in
                    guard let task = makeTask(urlRequest, file: file) else {
                        return continuation.resume(throwing: FerryError(.sessionShutDown))
                    }
                    router.register(call, for: task.taskIdentifier)
                    call.start(task, continuation: continuation)
                }
            }
        } onCancel: {
            call.stop(FerryError(.cancelled))
        }
        return TransportResponse(
            head: head, body: request.method == .head ? .empty : ResponseBody(URLSessionBody(call: call)))
    }

    /// A new task, or `nil` once the session is invalidated: creating a task on an invalidated URLSession is a
    /// fatal error in Foundation.
    private func makeTask(_ urlRequest: URLRequest, file: URL?) -> URLSessionTask? {
        let allowed = lifecycle.withLock { state in
            guard !state.invalidated else { return false }
            state.creating += 1
            return true
        }
        guard allowed else { return nil }
        let task = file.map { session.uploadTask(with: urlRequest, fromFile: $0) } ?? session.dataTask(with: urlRequest)
        let invalidateNow = lifecycle.withLock { state in
            state.creating -= 1
            guard state.invalidationPending, state.creating == 0 else { return false }
            state.invalidationPending = false
            return true
        }
        if invalidateNow { session.finishTasksAndInvalidate() }
        return task
    }

    /// Lets running tasks finish, then invalidates the URLSession.
    public func shutdown() async {
        invalidate()
    }

    private func invalidate() {
        let now = lifecycle.withLock { state in
            guard !state.invalidated else { return false }
            state.invalidated = true
            guard state.creating == 0 else {
                state.invalidationPending = true
                return false
            }
            return true
        }
        if now { session.finishTasksAndInvalidate() }
    }

    /// The file an upload task sends: a file body (Ferry spools stream bodies to one before they get here).
    static func uploadFile(of request: Request) -> URL? {
        guard let body = request.body, case .file(let url) = body.content else { return nil }
        return url
    }

    static func urlRequest(for request: Request) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for header in request.headers {
            urlRequest.addValue(header.value, forHTTPHeaderField: header.name)
        }
        if let body = request.body, case .data(let data) = body.content {
            urlRequest.httpBody = data
        }
        if let count = request.body?.count, uploadFile(of: request) != nil {
            urlRequest.setValue(String(count), forHTTPHeaderField: "Content-Length")
        }
        // Foundation truncates this to whole seconds and fails at once under one second; Ferry's own timer
        // enforces the exact idle timeout, this is only a backstop.
        let idle = request.idleTimeout.map { Double($0.components.seconds) + 2 } ?? 3600
        urlRequest.timeoutInterval = max(2, idle)
        return urlRequest
    }
}
