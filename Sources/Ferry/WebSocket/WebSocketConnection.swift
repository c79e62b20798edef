import Foundation

/// One WebSocket's life: opened by the first task that needs it (the handshake runs in that task), then the open
/// socket, whose frames an engine reads on a task of its own, until it ends.
actor WebSocketConnection {
    private enum State {
        case idle
        case connecting([CheckedContinuation<Result<WebSocketOpen, FerryError>, Never>])
        case open(WebSocketOpen)
        case failed(FerryError)
    }

    private var state = State.idle
    /// The open socket, once the handshake succeeded: sending and reading find it here without entering the actor.
    /// (Benchmarks/README.md, "WebSockets": an actor hop per message cost parallel-32 about a fifth of its rate.)
    private nonisolated let opened = Locked<WebSocketOpen?>(nil)
    /// Where messages, close requests and the end meet; reached synchronously by cancellation and `deinit`.
    nonisolated let inbox = WebSocketInbox()
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
        switch state {
        case .open(let open):
            return open
        case .failed(let error):
            throw error
        case .connecting(var waiters):
            let result = await withCheckedContinuation { continuation in
                waiters.append(continuation)
                state = .connecting(waiters)
            }
            return try result.get()
        case .idle:
            state = .connecting([])
            let result: Result<WebSocketOpen, FerryError>
            do throws(FerryError) {
                let provider = pipeline.configuration.transport as? any WebSocketProviding
                guard provider != nil || WebSocketEngine.isAvailable else {
                    throw FerryError.webSocketTraitMissing(request: try? request.get())
                }
                if inbox.isClosing { throw FerryError(.webSocketClosed(.normalClosure), request: try? request.get()) }
                let (options, cookieJar, inbox) = (options, pipeline.configuration.cookieJar, inbox)
                let transport = pipeline.configuration.transport
                result = .success(
                    try await pipeline.webSocketHandshake(try request.get()) { sent throws(FerryError) in
                        if let provider { return try await self.open(sent, on: provider) }
                        return try await WebSocketEngine.connect(
                            sent, options: options, transport: transport, cookieJar: cookieJar, inbox: inbox)
                    } head: {
                        $0.head
                    })
            } catch {
                result = .failure(error)
            }
            guard case .connecting(let waiters) = state else { preconditionFailure("WebSocketConnection: state") }
            switch result {
            case .success(let open):
                state = .open(open)
                opened.withLock { $0 = open }
            case .failure(let error):
                state = .failed(error)
                inbox.finish(.failure(error), closeFrame: nil)
            }
            for waiter in waiters { waiter.resume(returning: result) }
            return try result.get()
        }
    }

    /// The open socket: at once when the handshake is done, else through ``open()``.
    nonisolated func ready() async throws(FerryError) -> WebSocketOpen {
        if let open = opened.withLock({ $0 }) { return open }
        return try await open()
    }

    /// Opens the socket through a transport that provides WebSockets, then does what the engine does with its
    /// answer: the cookies of the head (a refusal's too) go to the jar, and a subprotocol that was not offered fails
    /// the handshake.
    private nonisolated func open(
        _ request: Request, on provider: any WebSocketProviding
    ) async throws(FerryError)
        -> WebSocketOpen
    {
        let cookieJar = pipeline.configuration.cookieJar
        let open: WebSocketOpen
        do {
            open = try await provider.openWebSocket(request, options: options, inbox: inbox)
        } catch {
            let failure = FerryError.mapping(error, cancelled: Task.isCancelled)
                .adding(request: request, response: nil, body: nil)
            if let head = failure.response { cookieJar?.storeCookies(of: head, for: request.url) }
            throw failure
        }
        cookieJar?.storeCookies(of: open.head, for: request.url)
        if let chosen = open.head.headers["Sec-WebSocket-Protocol"],
            !request.headers.listElements(for: "Sec-WebSocket-Protocol").contains(chosen)
        {
            let error = FerryError(
                .transport(.invalidResponse), request: request, response: open.head,
                underlyingError: WebSocketHandshakeError.unofferedSubprotocol(chosen))
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
    nonisolated func send(_ frame: WebSocketOutgoingFrame) async throws(FerryError) {
        let open = try await ready()
        if inbox.isClosing || inbox.hasEnded {
            throw FerryError(
                .webSocketClosed(inbox.closeFrame?.code ?? .normalClosure), request: open.request, response: open.head)
        }
        try await open.send(frame)
    }

    /// Closes the socket with `code` and waits for the close handshake (or its timeout); a socket never opened is
    /// only marked closed. With `draining`, the consumer still gets the messages the server sent before its close
    /// frame.
    func close(code: WebSocketCloseCode, reason: String, draining: Bool = false) async {
        switch state {
        case .idle:
            state = .failed(FerryError(.webSocketClosed(code), request: try? request.get()))
            inbox.finish(.success(nil), closeFrame: WebSocketClose(code: code, reason: reason))
        case .failed:
            return
        case .connecting:
            inbox.requestClose(code, reason: reason, keepsReading: draining)
            if let open = try? await open() { await finishing(open.run) }
        case .open(let open):
            inbox.requestClose(code, reason: reason, keepsReading: draining)
            await finishing(open.run)
        }
    }

    /// Waits for the socket's task to end. When a draining close keeps the reader going for a consumer that stops
    /// asking for messages, the reader is stopped after the close timeout, so that the close handshake goes on
    /// without it.
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
