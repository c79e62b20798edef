import Foundation

/// One WebSocket's life: opened by the first task that needs it (the handshake runs in that task), then the open
/// socket, whose frames an engine reads on a task of its own, until it ends.
actor WebSocketConnection {
    private enum State {
        case idle
        case connecting([CheckedContinuation<Result<WebSocketEngine.Open, FerryError>, Never>])
        case open(WebSocketEngine.Open)
        case failed(FerryError)
    }

    private var state = State.idle
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
    func open() async throws(FerryError) -> WebSocketEngine.Open {
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
            let result: Result<WebSocketEngine.Open, FerryError>
            do throws(FerryError) {
                guard WebSocketEngine.isAvailable else {
                    throw FerryError.webSocketTraitMissing(request: try? request.get())
                }
                if inbox.isClosing { throw FerryError(.webSocketClosed(.normalClosure), request: try? request.get()) }
                let adapted = try await pipeline.prepareWebSocket(try request.get())
                result = .success(
                    try await WebSocketEngine.connect(
                        adapted, options: options, cookieJar: pipeline.configuration.cookieJar, inbox: inbox))
            } catch {
                result = .failure(error)
            }
            guard case .connecting(let waiters) = state else { preconditionFailure("WebSocketConnection: state") }
            switch result {
            case .success(let open): state = .open(open)
            case .failure(let error):
                state = .failed(error)
                inbox.finish(.failure(error), closeFrame: nil)
            }
            for waiter in waiters { waiter.resume(returning: result) }
            return try result.get()
        }
    }

    /// Sends a frame, opening the socket first when needed.
    /// - Throws: ``FerryError``: the handshake's failure, or ``FerryError/Reason/webSocketClosed(_:)`` once the
    ///   socket is closing or closed.
    func send(_ frame: WebSocketEngine.OutgoingFrame) async throws(FerryError) {
        let open = try await open()
        if inbox.isClosing || inbox.hasEnded {
            throw FerryError(
                .webSocketClosed(inbox.closeFrame?.code ?? .normalClosure), request: open.request, response: open.head)
        }
        try await WebSocketEngine.send(frame, on: open)
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
