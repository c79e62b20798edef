import Foundation

/// Sends requests and owns their shared state.
///
/// ```swift
/// let session = Session()
/// let user: User = try await session.get("https://api.example.com/users/1").serializingDecodable(User.self)
/// ```
///
/// Making a request (``get(_:query:headers:)``, ``request(_:)``, …) is synchronous and cheap: it returns a task
/// value and sends nothing yet. The transfer starts when the task is first awaited, and runs in the awaiting task,
/// as `URLSession.data(for:)` does: that task's priority and task-local values reach the transport, and cancelling
/// it cancels the transfer. ``DataTask/resume()`` starts a task that nobody will await. The session's actor keeps
/// the shared state (running transfers, shutdown) without a hop per request.
/// ``shutdown(cancellingInFlightRequests:)`` ends a session for good.
public actor Session {
    /// The version of Ferry, as sent in the default `User-Agent`.
    public static let version = "0.1.0"

    /// How this session sends requests.
    public nonisolated let configuration: Configuration

    nonisolated let pipeline: Pipeline
    /// The running transfers, the pipeline's (a cache's background revalidation is one of them).
    nonisolated var registry: TransferRegistry { pipeline.registry }

    /// Creates a session.
    /// - Parameter configuration: Defaults and the transport; ``Configuration/makeDefaultTransport()`` when omitted.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.pipeline = Pipeline(configuration: configuration)
    }

    /// Creates a session with the default configuration and a given transport.
    /// - Parameter transport: What moves the bytes, e.g. `InMemoryTransport` from `FerryTesting`.
    public init(transport: any Transport) {
        self.init(configuration: Configuration(transport: transport))
    }

    /// Makes a task for `request`; it is sent when the task is first awaited.
    /// - Parameter request: The request; a URL without a scheme is appended to the base URL.
    /// - Returns: The task: await its value, or serialize it (``DataTask/serializingJSON()``, …).
    public nonisolated func request(_ request: Request) -> DataTask<Data> {
        DataTask(transfer: Transfer(.data(pipeline, request), registry: registry), validation: configuration.validation)
    }

    /// The number of requests running.
    public var activeRequestCount: Int { registry.count }

    /// Cancels every running request; the session stays usable.
    public func cancelAllRequests() {
        for transfer in registry.running { transfer.cancel() }
    }

    /// Ends the session: new requests fail with ``FerryError/Reason/sessionShutDown``; running ones finish (or
    /// are cancelled), then the transport releases its resources.
    /// - Parameter cancellingInFlightRequests: Whether to cancel running requests rather than wait for them.
    public func shutdown(cancellingInFlightRequests: Bool = false) async {
        guard let running = registry.shutDown() else { return }
        if cancellingInFlightRequests { running.forEach { $0.cancel() } }
        for transfer in running { await transfer.waitUntilFinished() }
        await configuration.transport.shutdown()
        pipeline.timeouts.shutdown()
        pipeline.events?.finish()
    }
}

extension Session {
    /// `request` as a `curl` command line, as this session would send it: base URL and default headers applied,
    /// the values of ``Configuration/redactedHeaderNames`` hidden.
    /// - Parameter request: The request.
    /// - Returns: The command; `request`'s own description when it cannot be prepared (an invalid URL).
    public nonisolated func cURLDescription(of request: Request) -> String {
        let prepared = (try? pipeline.prepare(request).request) ?? request
        return prepared.cURLDescription(redacting: configuration.redactedHeaderNames)
    }

    /// Ends the session gracefully: new requests fail with ``FerryError/Reason/sessionShutDown``; running ones
    /// get `gracePeriod` to finish, then are cancelled; then the transport releases its resources.
    /// - Parameter gracePeriod: How long running requests may take to finish.
    public func shutdown(gracePeriod: Duration) async {
        guard let running = registry.shutDown() else { return }
        let timeouts = pipeline.timeouts
        let deadline = timeouts.now + gracePeriod
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for transfer in running { await transfer.waitUntilFinished() }
                return true
            }
            group.addTask {
                try? await timeouts.sleep(until: deadline)
                return false
            }
            if await group.next() == false {
                running.forEach { $0.cancel() }
            }
            group.cancelAll()
        }
        await configuration.transport.shutdown()
        timeouts.shutdown()
    }
}
