/// Watches what a session's requests do: created, adapted, the cache's decision, each attempt, each head, redirects,
/// retries, the end.
///
/// Every method has a default that does nothing: implement those you need. A session delivers events to each of its
/// monitors (``Session/Configuration/eventMonitors``) in order, on a task of that monitor's own, through a buffer:
/// the transfer never waits for a monitor, so a slow monitor only falls behind (past
/// ``Session/Configuration/eventBufferLimit`` events waiting, it misses the newest ones) and never slows a request.
/// Events of one request arrive in the order they happened; use ``RequestID`` to tell concurrent requests apart.
///
/// ```swift
/// struct Log: EventMonitor {
///     func requestCompleted(_ completion: RequestCompletion, id: RequestID) async {
///         print(id, completion.request?.url as Any, completion.response?.statusCode as Any, completion.timeline)
///     }
/// }
/// ```
public protocol EventMonitor: Sendable {
    /// A task for `request` was made (nothing is sent yet).
    /// - Parameters:
    ///   - request: The request as made.
    ///   - id: The request's identity.
    func requestCreated(_ request: Request, id: RequestID) async

    /// The session's ``HTTPCache`` settled where the response comes from (``Metrics/cacheStatus``,
    /// ``Timeline/cacheDecided``): once per request that consulted the cache (a `GET` read into memory, in a session
    /// with a cache).
    ///
    /// ``CacheStatus/hit``, ``CacheStatus/staleHit`` and ``CacheStatus/unsatisfiable`` come from the lookup, before
    /// anything is sent, and no attempt follows; ``CacheStatus/miss`` comes from the lookup when nothing stored
    /// could answer, before the first attempt. When a stored response had to be revalidated, the decision comes
    /// after the conditional request's answer: ``CacheStatus/revalidated`` (a `304`), ``CacheStatus/staleHit`` (the
    /// server failed and `stale-if-error` let the stored response answer) or ``CacheStatus/miss`` (the server's new
    /// response answers). A request that fails while revalidating, with nothing stored allowed to stand in, ends
    /// without this event.
    /// - Parameters:
    ///   - status: Where the response comes from.
    ///   - request: The request looked up (defaults applied, before interceptors adapt it).
    ///   - id: The request's identity.
    func cacheDecided(_ status: CacheStatus, for request: Request, id: RequestID) async

    /// The interceptors adapted the request for an attempt (only when there are interceptors).
    /// - Parameters:
    ///   - request: The request as it will be sent.
    ///   - attempt: The attempt, from 1.
    ///   - id: The request's identity.
    func requestAdapted(_ request: Request, attempt: Int, id: RequestID) async

    /// An attempt starts: its first hop is handed to the transport.
    /// - Parameters:
    ///   - request: The request sent.
    ///   - attempt: The attempt, from 1.
    ///   - id: The request's identity.
    func attemptStarted(_ request: Request, attempt: Int, id: RequestID) async

    /// A response head arrived, a redirect's included.
    /// - Parameters:
    ///   - response: The head.
    ///   - attempt: The attempt it answers.
    ///   - id: The request's identity.
    func responseHeadReceived(_ response: HTTPResponse, attempt: Int, id: RequestID) async

    /// A redirect is followed.
    /// - Parameters:
    ///   - response: The redirect response.
    ///   - next: The request sent next (method, body and credentials as the redirect left them).
    ///   - id: The request's identity.
    func redirectFollowed(_ response: HTTPResponse, to next: Request, id: RequestID) async

    /// An attempt failed and another is scheduled.
    /// - Parameters:
    ///   - failure: The failed attempt; its ``FailedAttempt/error`` is the reason.
    ///   - delay: The wait before the next attempt.
    ///   - id: The request's identity.
    func retryScheduled(after failure: FailedAttempt, delay: Duration, id: RequestID) async

    /// The request ended, successfully or not (except by cancellation).
    /// - Parameters:
    ///   - completion: Request, response head, error, metrics and timeline.
    ///   - id: The request's identity.
    func requestCompleted(_ completion: RequestCompletion, id: RequestID) async

    /// The request was cancelled, before it started or while it ran.
    /// - Parameters:
    ///   - completion: What is known: the request, the head when one arrived, metrics and timeline.
    ///   - id: The request's identity.
    func requestCancelled(_ completion: RequestCompletion, id: RequestID) async
}

extension EventMonitor {
    /// Does nothing.
    /// - Parameters:
    ///   - request: The request.
    ///   - id: Its identity.
    public func requestCreated(_ request: Request, id: RequestID) async {}

    /// Does nothing.
    /// - Parameters:
    ///   - status: Where the response comes from.
    ///   - request: The request.
    ///   - id: Its identity.
    public func cacheDecided(_ status: CacheStatus, for request: Request, id: RequestID) async {}

    /// Does nothing.
    /// - Parameters:
    ///   - request: The adapted request.
    ///   - attempt: The attempt.
    ///   - id: Its identity.
    public func requestAdapted(_ request: Request, attempt: Int, id: RequestID) async {}

    /// Does nothing.
    /// - Parameters:
    ///   - request: The request.
    ///   - attempt: The attempt.
    ///   - id: Its identity.
    public func attemptStarted(_ request: Request, attempt: Int, id: RequestID) async {}

    /// Does nothing.
    /// - Parameters:
    ///   - response: The head.
    ///   - attempt: The attempt.
    ///   - id: Its identity.
    public func responseHeadReceived(_ response: HTTPResponse, attempt: Int, id: RequestID) async {}

    /// Does nothing.
    /// - Parameters:
    ///   - response: The redirect.
    ///   - next: The next request.
    ///   - id: Its identity.
    public func redirectFollowed(_ response: HTTPResponse, to next: Request, id: RequestID) async {}

    /// Does nothing.
    /// - Parameters:
    ///   - failure: The failed attempt.
    ///   - delay: The wait.
    ///   - id: Its identity.
    public func retryScheduled(after failure: FailedAttempt, delay: Duration, id: RequestID) async {}

    /// Does nothing.
    /// - Parameters:
    ///   - completion: The end.
    ///   - id: Its identity.
    public func requestCompleted(_ completion: RequestCompletion, id: RequestID) async {}

    /// Does nothing.
    /// - Parameters:
    ///   - completion: The end.
    ///   - id: Its identity.
    public func requestCancelled(_ completion: RequestCompletion, id: RequestID) async {}
}
