/// Watches a request as it runs: the one seam through which the pipeline and the transfer report what happens.
/// The session's event monitors (``EventMonitor``s, through ``EventDelivery``'s buffers: logging and metrics among
/// them) and tracing are observers; nothing else watches a request.
///
/// Every method is called in the task at work, synchronously, at the moment the step happens: an observer never
/// makes a request wait (one that has slow work to do hands it on, as ``EventDelivery`` does).
protocol TransferObserver: Sendable {
    /// The request starts being sent, in this task: the first task that needed its head or its outcome.
    /// - Parameters:
    ///   - request: The request as made.
    ///   - id: The request's identity.
    func started(_ request: Request, id: RequestID)

    /// A hop of `request` is about to be handed to the transport: the last moment to add header fields (a trace
    /// context).
    /// - Parameters:
    ///   - request: The request as it will be sent.
    ///   - id: The request's identity.
    func willSend(_ request: inout Request, id: RequestID)

    /// Something happened to the request: made, the cache's decision, adapted, an attempt, a head, a redirect, a
    /// retry, the end.
    /// - Parameters:
    ///   - event: What happened.
    ///   - id: The request's identity.
    func observe(_ event: RequestEvent, id: RequestID)
}

extension TransferObserver {
    func started(_ request: Request, id: RequestID) {}
    func willSend(_ request: inout Request, id: RequestID) {}
}

extension [any TransferObserver] {
    /// Tells every observer about `event`, which is made only when someone watches (a session without monitors or
    /// tracing copies no request, head or outcome into events).
    func observe(_ event: @autoclosure () -> RequestEvent, id: RequestID) {
        guard !isEmpty else { return }
        let event = event()
        for observer in self { observer.observe(event, id: id) }
    }

    /// Tells every observer that `request` starts.
    func started(_ request: Request, id: RequestID) {
        for observer in self { observer.started(request, id: id) }
    }

    /// Lets every observer add to a hop's request before it is sent.
    func willSend(_ request: inout Request, id: RequestID) {
        for observer in self { observer.willSend(&request, id: id) }
    }
}
