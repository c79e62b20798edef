import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One WebSocket on a `URLSessionWebSocketTask`: the upgrade awaited, then the socket's task, which reads a message
/// only when the consumer wants one, sends the close the consumer asks for and tells the inbox how the socket ended.
/// Its state is a ``URLSessionWebSocketStateMachine`` behind a lock, because URLSession's delegate reaches it
/// synchronously (``URLSessionEventRouter``); continuations are resumed after the lock is released.
final class URLSessionWebSocket: Sendable {
    private typealias Machine = URLSessionWebSocketStateMachine<
        CheckedContinuation<URLSessionWebSocketOpening, Never>, CheckedContinuation<Void, Never>
    >

    private let task: any WebSocketTaskDriving
    private let state = Locked(Machine())

    init(task: any WebSocketTaskDriving) {
        self.task = task
    }

    // MARK: What the delegate reports

    /// The upgrade succeeded, with the subprotocol the server chose.
    func opened(subprotocol: String?) {
        state.withLock { $0.opened(subprotocol: subprotocol) }?.resume(returning: .opened)
    }

    /// The subprotocol the server chose, as URLSession reported it.
    var subprotocol: String? { state.withLock { $0.subprotocol } }

    /// The server sent a close frame.
    func serverClosed(code: URLSessionWebSocketTask.CloseCode, reason: Data?) {
        let close = WebSocketClose(
            code: code == .invalid ? nil : WebSocketCloseCode(rawValue: UInt16(clamping: code.rawValue)),
            reason: reason.map { String(decoding: $0, as: UTF8.self) } ?? "")
        state.withLock { $0.serverClosed(close) }
    }

    /// The delegate refused the server's TLS; the upgrade fails with `error` (URLSession cancels the task).
    func refused(_ error: FerryError) {
        state.withLock { $0.refuse(error) }
    }

    /// The task completed.
    func completed() {
        let (opening, ended) = state.withLock { $0.completed() }
        if let (waiter, outcome) = opening { waiter.resume(returning: outcome) }
        for waiter in ended { waiter.resume() }
    }

    // MARK: The upgrade

    /// Waits until the upgrade succeeds or the task completes without it; cancels the task when the awaiting task is
    /// cancelled or `timeout` runs out first.
    func waitForOpen(timeout: Duration?) async -> URLSessionWebSocketOpening {
        await withTaskGroup(of: Void.self) { group in
            if let timeout {
                group.addTask { [self] in
                    do {
                        try await Task.sleep(for: timeout)
                        if state.withLock({ $0.expire() }) { task.cancel() }
                    } catch {}
                }
            }
            let opening = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    if case .now(let now) = state.withLock({ $0.waitForOpen(continuation) }) {
                        continuation.resume(returning: now)
                    }
                }
            } onCancel: {
                task.cancel()
            }
            group.cancelAll()
            return opening
        }
    }

    // MARK: The socket's task

    /// Runs the open socket until the task completes, then tells `inbox` how it ended.
    func run(options: WebSocketOptions, inbox: WebSocketInbox, request: Request, head: HTTPResponse) async {
        var readerFailure: (any Error)?
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                // A requested close, or a normal one when the reader stopped without it (the engine's handler does
                // the same), then the close handshake gets the close timeout.
                let close = await inbox.closerWaits()
                sendClose(close.map { WebSocketClose(code: $0.code, reason: $0.reason) } ?? .init(code: .normalClosure))
                do {
                    try await Task.sleep(for: options.closeTimeout)
                    task.cancel()
                } catch {}
            }
            if let interval = options.keepAliveInterval {
                group.addTask { [self] in await keepAlive(every: interval, inbox: inbox) }
            }
            inbox.attach(
                WebSocketReader { [self] in
                    while true {
                        let message = try await task.receive()
                        state.withLock { $0.peerAnswered() }
                        switch message {
                        case .string(let text): return .text(text)
                        case .data(let data): return .binary(data)
                        #if canImport(Darwin)
                        @unknown default: continue  // a kind of message this SDK does not know: not delivered
                        #endif
                        }
                    }
                })
            if let error = await inbox.readingEnds() {
                // A message over `maximumMessageSize` fails the read with EMSGSIZE.
                if Self.isMessageTooBig(error) {
                    inbox.noteFault(.messageTooBig)
                    sendClose(WebSocketClose(code: .messageTooBig))
                } else if !inbox.isClosing {
                    readerFailure = error
                }
            }
            inbox.readerStopped()
            await ended()
            group.cancelAll()
        }
        var (serverClose, sentClose) = state.withLock { ($0.serverClose, $0.sentClose) }
        if serverClose == nil, task.closeCode != .invalid, sentClose == nil {
            // The task's own record of the server's close, when the delegate did not report it.
            serverClose = WebSocketClose(
                code: WebSocketCloseCode(rawValue: UInt16(clamping: task.closeCode.rawValue)),
                reason: task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? "")
        }
        let end: WebSocketDelivery
        var closeFrame: WebSocketClose?
        if let fault = inbox.fault {
            end = .failure(FerryError(.webSocketClosed(fault), request: request, response: head))
            closeFrame = serverClose ?? WebSocketClose(code: fault)
        } else if let serverClose {
            end = .success(nil)
            closeFrame = serverClose
        } else if let readerFailure {
            end = .failure(
                FerryError(
                    .transport(.connectionLost), request: request, response: head, underlyingError: readerFailure)
            )
        } else {
            end = .success(nil)
            closeFrame = sentClose
        }
        inbox.finish(end, closeFrame: closeFrame)
    }

    /// Sends a close frame, unless one was sent or the task completed.
    private func sendClose(_ close: WebSocketClose) {
        guard state.withLock({ $0.sendsClose(close) }) else { return }
        let code = URLSessionWebSocketTask.CloseCode(rawValue: Int(close.code?.rawValue ?? 1000)) ?? .normalClosure
        task.cancel(with: code, reason: close.reason.isEmpty ? nil : Data(close.reason.utf8))
    }

    /// Waits until the task completes.
    private func ended() async {
        await withCheckedContinuation { continuation in
            if state.withLock({ $0.waitForEnd(continuation) }) { continuation.resume() }
        }
    }

    /// Pings every `interval`; when a ping is still unanswered as the next falls due, takes the peer for gone and
    /// closes with 1001. Ends when cancelled.
    private func keepAlive(every interval: Duration, inbox: WebSocketInbox) async {
        while true {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            guard state.withLock({ $0.keepAlivePingDue() }) else {
                inbox.noteFault(.goingAway)
                inbox.requestClose(.goingAway, reason: "")
                return
            }
            task.sendPing { [self] error in
                if error == nil { state.withLock { $0.peerAnswered() } }
            }
        }
    }

    private static func isMessageTooBig(_ error: any Error) -> Bool {
        let error = error as NSError
        return error.domain == NSPOSIXErrorDomain && error.code == Int(EMSGSIZE)
    }
}

/// What a ``URLSessionWebSocket`` does with its `URLSessionWebSocketTask`: named, so that the socket's rules run in
/// tests without a URLSession (FoundationNetworking here has no WebSockets to run them on).
protocol WebSocketTaskDriving: Sendable {
    /// The next message; throws once the socket closed or failed.
    func receive() async throws -> URLSessionWebSocketTask.Message
    /// Sends a ping; `pong` runs when its pong arrives, or with the error that stopped it.
    func sendPing(pong: @escaping @Sendable ((any Error)?) -> Void)
    /// Sends a close frame and starts the close handshake.
    func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?)
    /// Drops the connection.
    func cancel()
    /// The close code the server sent, `.invalid` while it sent none.
    var closeCode: URLSessionWebSocketTask.CloseCode { get }
    /// The close reason the server sent.
    var closeReason: Data? { get }
}

/// The one production ``WebSocketTaskDriving``: URLSession's own task.
struct URLSessionWebSocketTaskDriver: WebSocketTaskDriving {
    let task: URLSessionWebSocketTask

    func receive() async throws -> URLSessionWebSocketTask.Message { try await task.receive() }
    func sendPing(pong: @escaping @Sendable ((any Error)?) -> Void) { task.sendPing(pongReceiveHandler: pong) }
    func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) {
        task.cancel(with: closeCode, reason: reason)
    }
    func cancel() { task.cancel() }
    var closeCode: URLSessionWebSocketTask.CloseCode { task.closeCode }
    var closeReason: Data? { task.closeReason }
}
