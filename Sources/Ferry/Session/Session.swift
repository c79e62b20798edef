import Foundation

/// Sends requests and owns their state.
///
/// ```swift
/// let session = Session()
/// let user: User = try await session.get("https://api.example.com/users/1").serializingDecodable(User.self)
/// ```
///
/// Every request starts as soon as it is made and runs on its own task, off the actor; awaiting its
/// ``DataTask`` (or cancelling it) is how you take part. A session that is released while requests are in
/// flight lets them finish. ``shutdown(cancellingInFlightRequests:)`` ends a session for good.
public actor Session {
    /// The version of Ferry, as sent in the default `User-Agent`.
    public static let version = "0.1.0"

    /// How this session sends requests.
    public nonisolated let configuration: Configuration

    private let pipeline: Pipeline
    private var inFlight: [UInt64: Transfer] = [:]
    private var nextID: UInt64 = 0
    private var isShutDown = false

    /// Creates a session.
    /// - Parameter configuration: Defaults and the transport; ``URLSessionTransport`` when omitted.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.pipeline = Pipeline(configuration: configuration)
    }

    /// Creates a session with the default configuration and a given transport.
    /// - Parameter transport: What moves the bytes, e.g. `InMemoryTransport` from `FerryTesting`.
    public init(transport: any Transport) {
        self.init(configuration: Configuration(transport: transport))
    }

    /// Starts `request`.
    /// - Parameter request: The request; a URL without a scheme is appended to the base URL.
    /// - Returns: The task: await its value, or serialize it (``DataTask/serializingJSON()``, …).
    public func request(_ request: Request) -> DataTask<Data> {
        let transfer = start(request) { pipeline, request, transfer in
            await pipeline.run(request, finishing: transfer)
        }
        return DataTask(transfer: transfer, validation: configuration.validation)
    }

    /// Registers a transfer and runs `work` on a task of its own, off the actor; a shut-down session gives a
    /// transfer that already failed.
    func start(
        _ request: Request, _ work: @escaping @Sendable (Pipeline, Request, Transfer) async -> Void
    ) -> Transfer {
        nextID &+= 1
        let id = nextID
        guard !isShutDown else {
            let outcome = TransferOutcome.failure(FerryError(.sessionShutDown, request: request), request: request)
            return Transfer(id: id, finished: outcome)
        }
        let transfer = Transfer(id: id)
        inFlight[id] = transfer
        transfer.attach(launch(request, transfer: transfer, work))
        return transfer
    }

    private nonisolated func launch(
        _ request: Request, transfer: Transfer, _ work: @escaping @Sendable (Pipeline, Request, Transfer) async -> Void
    ) -> Task<Void, Never> {
        Task { [pipeline] in
            await work(pipeline, request, transfer)
            await self.finished(transfer.id)
        }
    }

    private func finished(_ id: UInt64) {
        inFlight[id] = nil
    }

    /// The number of requests still running.
    public var activeRequestCount: Int { inFlight.count }

    /// Cancels every running request; the session stays usable.
    public func cancelAllRequests() {
        for transfer in inFlight.values { transfer.cancel() }
    }

    /// Ends the session: new requests fail with ``FerryError/Reason/sessionShutDown``; running ones finish (or
    /// are cancelled), then the transport releases its resources.
    /// - Parameter cancellingInFlightRequests: Whether to cancel running requests rather than wait for them.
    public func shutdown(cancellingInFlightRequests: Bool = false) async {
        guard !isShutDown else { return }
        isShutDown = true
        let running = Array(inFlight.values)
        if cancellingInFlightRequests { running.forEach { $0.cancel() } }
        for transfer in running { _ = await transfer.outcome() }
        await configuration.transport.shutdown()
    }
}
