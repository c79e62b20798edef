import Foundation

/// One WebSocket's life: opened by the first task that needs it (the handshake runs in that task), then the open
/// socket, whose frames an engine reads on a task of its own, until it ends. Its phase is a
/// ``WebSocketConnectionStateMachine`` behind a lock, so that sending and reading on an open socket take no hop.
/// (Benchmarks/README.md, "WebSockets": an actor hop per message cost parallel-32 about a fifth of its rate.)
final class WebSocketConnection: Sendable {
    private typealias Machine = WebSocketConnectionStateMachine<
        WebSocketOpen, CheckedContinuation<Result<WebSocketOpen, FerryError>, Never>
    >

    private let state = Locked(Machine())
    /// Where messages, close requests and the end meet; reached synchronously by cancellation and `deinit`.
    let inbox = WebSocketInbox()
    private let pipeline: Pipeline
    private let request: Result<Request, FerryError>
    private let options: WebSocketOptions

    init(pipeline: Pipeline, request: Result<Request, FerryError>, options: WebSocketOptions) {
        self.pipeline = pipeline
        self.request = request
        self.options = options
    }

    /// The open socket; the first caller performs the handshake, later ones wait for it.
    /// - Throws: ``FerryError``: the handshake's failure (every caller gets the same one).
    func open() async throws(FerryError) -> WebSocketOpen {
        switch state.withLock({ $0.open() }) {
        case .open(let open):
            return open
        case .failed(let error):
            throw error
        case .wait:
            let result = await withCheckedContinuation { continuation in
                if let now = state.withLock({ $0.wait(continuation) }) { continuation.resume(returning: now) }
            }
            return try result.get()
        case .handshake:
            let result = await handshake()
            if case .failure(let error) = result { inbox.finish(.failure(error), closeFrame: nil) }
            for waiter in state.withLock({ $0.handshakeEnded(result) }) { waiter.resume(returning: result) }
            return try result.get()
        }
    }

    /// The handshake, through the session's pipeline, on the transport's WebSockets or Ferry's engine.
    private func handshake() async -> Result<WebSocketOpen, FerryError> {
        do throws(FerryError) {
            let provider = pipeline.configuration.transport as? any WebSocketProviding
            guard provider != nil || WebSocketEngine.isAvailable else {
                throw FerryError.webSocketTraitMissing(request: try? request.get())
            }
            if inbox.isClosing { throw FerryError(.webSocketClosed(.normalClosure), request: try? request.get()) }
            let (options, inbox) = (options, inbox)
            let transport = pipeline.configuration.transport
            return .success(
                try await pipeline.webSocketHandshake(try request.get()) { sent throws(FerryError) in
                    if let provider { return try await self.open(sent, on: provider) }
                    return try await WebSocketEngine.connect(sent, options: options, transport: transport, inbox: inbox)
                } head: {
                    $0.head
                })
        } catch {
            return .failure(error)
        }
    }

    /// The open socket: at once when the handshake is done, else through ``open()``.
    func ready() async throws(FerryError) -> WebSocketOpen {
        if let open = state.withLock({ $0.openSocket }) { return open }
        return try await open()
    }

    /// Opens the socket through a transport that provides WebSockets, and fails it as the engine does when its
    /// head names a subprotocol that was not offered. (The handshake stores the cookies of either.)
    private func open(
        _ request: Request, on provider: any WebSocketProviding
    ) async throws(FerryError)
        -> WebSocketOpen
    {
        let open: WebSocketOpen
        do {
            open = try await provider.openWebSocket(request, options: options, inbox: inbox)
        } catch {
            throw FerryError.mapping(error, cancelled: Task.isCancelled).adding(
                request: request, response: nil, body: nil)
        }
        if let error = WebSocketHandshake.unofferedSubprotocolError(in: open.head, for: request) {
            // Ending the inbox stops the provider's socket, as the engine closes its channel.
            inbox.finish(.failure(error), closeFrame: nil)
            await open.run.value
            throw error
        }
        return open
    }

    /// Sends a frame, opening the socket first when needed.
    /// - Throws: ``FerryError``: the handshake's failure, or ``FerryError/Reason/webSocketClosed(_:)`` once the
    ///   socket is closing or closed.
    func send(_ frame: WebSocketOutgoingFrame) async throws(FerryError) {
        try await sendable().send(frame)
    }

    /// Sends a ping and waits for its pong, opening the socket first when needed.
    /// - Parameter payload: The payload; at most 125 bytes are sent.
    /// - Returns: The time from sending the ping to the pong's arrival, measured in the awaiting task.
    /// - Throws: ``FerryError``: as ``send(_:)``; the error that ended the socket before the pong;
    ///   ``FerryError/Reason/cancelled`` when the awaiting task is cancelled.
    func ping(_ payload: Data) async throws(FerryError) -> Duration {
        let open = try await sendable()
        let bytes = Array(payload.prefix(125))
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try await inbox.ping(payload: bytes) { () async throws(FerryError) in
                try await open.send(.ping(Data(bytes)))
            }
        } catch {
            throw error.adding(request: open.request, response: open.head, body: nil)
        }
        return start.duration(to: clock.now)
    }

    /// The open socket, while a frame may still be sent on it.
    /// - Throws: ``FerryError``: the handshake's failure, or ``FerryError/Reason/webSocketClosed(_:)``.
    private func sendable() async throws(FerryError) -> WebSocketOpen {
        let open = try await ready()
        if inbox.isClosing || inbox.hasEnded {
            throw FerryError(
                .webSocketClosed(inbox.closeFrame?.code ?? .normalClosure), request: open.request, response: open.head)
        }
        return open
    }

    /// Closes the socket with `code` and waits for the close handshake (or its timeout); a socket never opened is
    /// only marked closed. With `draining`, the consumer still gets the messages the server sent before its close
    /// frame.
    func close(code: WebSocketCloseCode, reason: String, draining: Bool = false) async {
        switch state.withLock({ $0.close(closed: FerryError(.webSocketClosed(code), request: try? request.get())) }) {
        case .markClosed:
            inbox.finish(.success(nil), closeFrame: WebSocketClose(code: code, reason: reason))
        case .none:
            return
        case .closeWhenOpen:
            inbox.requestClose(code, reason: reason, keepsReading: draining)
            if let open = try? await open() { await finishing(open.run) }
        case .close(let open):
            inbox.requestClose(code, reason: reason, keepsReading: draining)
            await finishing(open.run)
        }
    }

    /// Waits for the socket's task to end. When a draining close keeps reading for a consumer that stops asking for
    /// messages, reading is stopped after the close timeout, so that the close handshake goes on without it.
    private func finishing(_ run: Task<Void, Never>) async {
        let inbox = inbox
        let patience = options.closeTimeout
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await run.value }
            group.addTask {
                do {
                    try await Task.sleep(for: patience)
                    inbox.stopReading()
                } catch {}
            }
            await group.next()
            group.cancelAll()
        }
    }
}
