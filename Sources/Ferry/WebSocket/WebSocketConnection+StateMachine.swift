/// The rules of a WebSocket's opening, behind ``WebSocketConnection``'s lock: the first task that needs the socket
/// performs the handshake, the others wait for its result, and a close before or during it is decided here.
///
/// ```
/// idle ──open──▶ connecting ──handshake ended──▶ open | failed
///   └──────────────close─────────────────────────────▶ failed
/// ```
///
/// `Socket` is the open socket and `Waiter` a task waiting for it (continuations in ``WebSocketConnection``, plain
/// values in the tests), so that the rules are tested without tasks or sockets.
struct WebSocketConnectionStateMachine<Socket, Waiter> {
    private enum Phase {
        case idle
        case connecting([Waiter])
        case open(Socket)
        case failed(FerryError)
    }

    private var phase = Phase.idle

    init() {}

    enum OpenAction {
        /// Perform the handshake now, in this task; report its result with ``handshakeEnded(_:)``.
        case handshake
        /// Another task performs it: ``wait(_:)``.
        case wait
        /// The socket is open.
        case open(Socket)
        /// The handshake failed, or the socket was closed before it opened.
        case failed(FerryError)
    }

    /// A task needs the open socket.
    mutating func open() -> OpenAction {
        switch phase {
        case .idle:
            phase = .connecting([])
            return .handshake
        case .connecting: return .wait
        case .open(let socket): return .open(socket)
        case .failed(let error): return .failed(error)
        }
    }

    /// A task whose ``open()`` said ``OpenAction/wait`` waits; `nil` when it waits, else the result to resume it
    /// with at once (the handshake ended in between).
    mutating func wait(_ waiter: Waiter) -> Result<Socket, FerryError>? {
        switch phase {
        case .connecting(var waiters):
            waiters.append(waiter)
            phase = .connecting(waiters)
            return nil
        case .open(let socket): return .success(socket)
        case .failed(let error): return .failure(error)
        case .idle: preconditionFailure("WebSocketConnectionStateMachine: a wait before any handshake")
        }
    }

    /// The handshake ended: the socket is open, or it failed.
    /// - Returns: The waiters to resume with `result`.
    mutating func handshakeEnded(_ result: Result<Socket, FerryError>) -> [Waiter] {
        guard case .connecting(let waiters) = phase else {
            preconditionFailure("WebSocketConnectionStateMachine: a handshake ended that did not start")
        }
        switch result {
        case .success(let socket): phase = .open(socket)
        case .failure(let error): phase = .failed(error)
        }
        return waiters
    }

    /// The socket, once open.
    var openSocket: Socket? {
        if case .open(let socket) = phase { socket } else { nil }
    }

    enum CloseAction {
        /// It never opened and now never will: the inbox ends with the close frame.
        case markClosed
        /// It failed or was closed already.
        case none
        /// The handshake is running: request the close, then wait for the handshake and the socket's end.
        case closeWhenOpen
        /// Request the close and wait for the socket's end.
        case close(Socket)
    }

    /// `close` was called.
    /// - Parameter closed: The error later uses of a socket closed before it opened get.
    mutating func close(closed: @autoclosure () -> FerryError) -> CloseAction {
        switch phase {
        case .idle:
            phase = .failed(closed())
            return .markClosed
        case .failed: return .none
        case .connecting: return .closeWhenOpen
        case .open(let socket): return .close(socket)
        }
    }
}
