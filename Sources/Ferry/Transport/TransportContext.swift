import Foundation

/// What a ``Transport`` gets besides the request: where it reports activity, upload progress and metrics, and how
/// Ferry stops the request.
///
/// One context serves one hop of one request. Its methods are cheap and never block, so a transport may call them
/// from synchronous callbacks.
public final class TransportContext: Sendable {
    /// How unread response bytes are buffered by a transport that cannot pause reading (URLSession); `nil` when
    /// Ferry reads the body as fast as it arrives.
    public var bufferOptions: StreamOptions? { controls.bufferOptions }

    /// The transfer's controls, whose stop signal ends the hop.
    private let controls: TransferControls
    private let timeout: TimeoutScheduler.Registration?
    private let uploadProgress: ProgressReporter?
    private let state = Locked((bytesSent: Int64(0), transactions: [TransactionMetrics]()))

    init(controls: TransferControls, timeout: TimeoutScheduler.Registration?, uploadProgress: ProgressReporter?) {
        self.controls = controls
        self.timeout = timeout
        self.uploadProgress = uploadProgress
    }

    /// Marks that bytes moved, so the idle timeout does not fire.
    public func noteActivity() {
        timeout?.noteActivity()
    }

    /// Marks that the whole body has arrived (a transport that buffers it for a slower reader): the server can no
    /// longer be idle, so the idle timeout stops counting until the reader asks for more.
    public func noteBodyComplete() {
        timeout?.pause()
    }

    /// Records upload progress (and activity).
    /// - Parameters:
    ///   - totalBytesSent: Body bytes sent so far.
    ///   - expected: The body's size, when known.
    public func noteSent(totalBytesSent: Int64, expected: Int64?) {
        noteActivity()
        state.withLock { $0.bytesSent = max($0.bytesSent, totalBytesSent) }
        uploadProgress?.update(completed: totalBytesSent, total: expected)
    }

    /// Records the phases the transport measured (see ``Metrics/transactions``).
    /// - Parameter transactions: The transactions, in order.
    public func record(_ transactions: [TransactionMetrics]) {
        state.withLock { $0.transactions.append(contentsOf: transactions) }
    }

    /// Why Ferry stopped the request (``FerryError/Reason/cancelled`` or ``FerryError/Reason/timedOut(_:)``), once
    /// it did; the transport then throws this error.
    public var stopError: FerryError? { controls.signal.error }

    /// Calls `handler` once if Ferry stops the request (at once if it already did), replacing the handler
    /// installed before. The handler runs on whichever thread stops the request: it must not block.
    /// - Parameter handler: Ends the transport's wait by failing it with the error it gets.
    public func onStop(_ handler: @escaping @Sendable (FerryError) -> Void) {
        controls.signal.install(handler)
    }

    /// Runs `operation`, which cannot be interrupted otherwise, so that Ferry can stop it: in a child task, which is
    /// cancelled when the request is stopped; this call then throws the stop error as soon as the child has ended
    /// (an operation that ignores cancellation delays it).
    /// - Parameter operation: The wait, e.g. an engine's `execute` or its body's next chunk.
    /// - Returns: The operation's value.
    /// - Throws: The stop error, or what the operation threw.
    public func stoppable<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        if let error = controls.signal.error { throw error }
        let race = StopRace<Value>()
        // A child task (`async let` is allocated from this task's own allocator, unlike a task group); leaving the
        // scope cancels it and waits for it.
        async let _ = race.run(operation)
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                race.wait(continuation)
                controls.signal.install { error in race.complete(.failure(error)) }
            }
        } onCancel: {
            race.complete(.failure(FerryError(.cancelled)))
        }
        controls.signal.removeHandler()
        return try result.get()
    }

    var bytesSent: Int64 { state.withLock { $0.bytesSent } }
    var transactions: [TransactionMetrics] { state.withLock { $0.transactions } }
}

/// The first of an operation's end and a stop, handed to one waiting continuation.
private final class StopRace<Value: Sendable>: Sendable {
    private enum State {
        case pending(UnsafeContinuation<Result<Value, any Error>, Never>?)
        case done(Result<Value, any Error>)
        case resumed
    }

    private let state = Locked(State.pending(nil))

    func run(_ operation: @Sendable () async throws -> Value) async {
        do {
            complete(.success(try await operation()))
        } catch {
            complete(.failure(error))
        }
    }

    func wait(_ continuation: UnsafeContinuation<Result<Value, any Error>, Never>) {
        let ready: Result<Value, any Error>? = state.withLock { state in
            switch state {
            case .pending:
                state = .pending(continuation)
                return nil
            case .done(let result):
                state = .resumed
                return result
            case .resumed:
                return nil
            }
        }
        if let ready { continuation.resume(returning: ready) }
    }

    func complete(_ result: Result<Value, any Error>) {
        let waiter: UnsafeContinuation<Result<Value, any Error>, Never>? = state.withLock { state in
            switch state {
            case .pending(let continuation?):
                state = .resumed
                return continuation
            case .pending(nil):
                state = .done(result)
                return nil
            case .done, .resumed:
                return nil
            }
        }
        waiter?.resume(returning: result)
    }
}
