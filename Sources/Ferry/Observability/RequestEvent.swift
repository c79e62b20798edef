/// One event for the monitors, as a value that goes through each monitor's buffer.
///
/// `indirect`: an event is made only when someone watches, but the pipeline's async frames reserve room for each one
/// they may make; boxed, an event is a pointer there. `Pipeline.send`'s frame 3,504 → 1,280 bytes and `Pipeline.open`'s
/// 2,832 → 2,128 (Benchmarks/README.md, "Moments instead of instants").
indirect enum RequestEvent: Sendable {
    case created(Request)
    case cacheDecided(CacheStatus, Request)
    case adapted(Request, attempt: Int)
    case attemptStarted(Request, attempt: Int)
    case responseHead(HTTPResponse, attempt: Int)
    case redirect(HTTPResponse, next: Request)
    case retry(FailedAttempt, delay: Duration)
    case completed(RequestCompletion)
    case cancelled(RequestCompletion)

    /// The event for a finished transfer: cancelled or completed.
    init(finished outcome: TransferOutcome) {
        let completion = RequestCompletion(
            request: outcome.request, response: outcome.response, error: outcome.error, metrics: outcome.metrics,
            timeline: outcome.timeline)
        self = outcome.error?.isCancellation == true ? .cancelled(completion) : .completed(completion)
    }

    /// Calls the monitor's method for this event.
    func deliver(to monitor: any EventMonitor, id: RequestID) async {
        switch self {
        case .created(let request): await monitor.requestCreated(request, id: id)
        case .cacheDecided(let status, let request): await monitor.cacheDecided(status, for: request, id: id)
        case .adapted(let request, let attempt): await monitor.requestAdapted(request, attempt: attempt, id: id)
        case .attemptStarted(let request, let attempt): await monitor.attemptStarted(request, attempt: attempt, id: id)
        case .responseHead(let head, let attempt): await monitor.responseHeadReceived(head, attempt: attempt, id: id)
        case .redirect(let head, let next): await monitor.redirectFollowed(head, to: next, id: id)
        case .retry(let failure, let delay): await monitor.retryScheduled(after: failure, delay: delay, id: id)
        case .completed(let completion): await monitor.requestCompleted(completion, id: id)
        case .cancelled(let completion): await monitor.requestCancelled(completion, id: id)
        }
    }
}
