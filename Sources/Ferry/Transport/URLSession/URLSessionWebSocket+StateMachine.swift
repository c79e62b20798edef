/// One `URLSessionWebSocketTask`'s life as URLSession's delegate and Ferry's socket task see it: connecting (with
/// the task that awaits the upgrade), open, ended; the close frames each side sent; the keep-alive ping in flight.
/// A plain value, generic over the waiting parties so that its tests need no tasks and no sockets; the
/// ``URLSessionWebSocket`` that owns it holds it behind a lock and resumes what it returns after the lock is released.
struct URLSessionWebSocketStateMachine<OpenWaiter, EndWaiter> {
    typealias Opening = URLSessionWebSocketOpening

    /// What ``waitForOpen(_:)`` says.
    enum OpenWait: Equatable {
        /// The upgrade is still running: the waiter is kept until it ends.
        case wait
        /// The upgrade already ended: resume the waiter with this now.
        case now(Opening)
    }

    private enum Phase {
        case connecting(OpenWaiter?)
        case open
        case ended
    }

    private var phase = Phase.connecting(nil)
    private var endWaiters: [EndWaiter] = []
    private var expired = false
    /// Why Ferry refused the server's TLS (a pin, the policy's roots) while connecting: the upgrade's failure.
    private var refusal: FerryError?
    private var pingInFlight = false

    /// The subprotocol URLSession reported when the upgrade succeeded.
    private(set) var subprotocol: String?
    /// The close frame the server sent, as URLSession reported it.
    private(set) var serverClose: WebSocketClose?
    /// The close frame Ferry sent; the first one is the one sent.
    private(set) var sentClose: WebSocketClose?

    /// Whether the task completed.
    var hasEnded: Bool {
        if case .ended = phase { return true }
        return false
    }

    // MARK: The upgrade

    /// The task awaiting the upgrade waits here.
    mutating func waitForOpen(_ waiter: OpenWaiter) -> OpenWait {
        switch phase {
        case .connecting:
            phase = .connecting(waiter)
            return .wait
        case .open:
            return .now(.opened)
        case .ended:
            return .now(failure)
        }
    }

    /// How an upgrade that never opened failed: Ferry's TLS refusal, else the task's end (or the time running out).
    private var failure: Opening {
        refusal.map(Opening.refused) ?? .failed(expired: expired)
    }

    /// URLSession says the upgrade succeeded, with the subprotocol the server chose. - Returns: The waiter to resume
    /// with ``Opening/opened``.
    mutating func opened(subprotocol: String?) -> OpenWaiter? {
        guard case .connecting(let waiter) = phase else { return nil }
        phase = .open
        self.subprotocol = subprotocol
        return waiter
    }

    /// The handshake's time ran out. - Returns: Whether the task is still connecting, and so must be cancelled.
    mutating func expire() -> Bool {
        guard case .connecting = phase else { return false }
        expired = true
        return true
    }

    /// The delegate refused the server's TLS as the transport's policy says (URLSession then cancels the task).
    /// The first refusal while connecting is kept: it, not the cancellation, is what the upgrade's waiter gets.
    mutating func refuse(_ error: FerryError) {
        guard case .connecting = phase, refusal == nil else { return }
        refusal = error
    }

    // MARK: The close and the end

    /// URLSession reports the server's close frame.
    mutating func serverClosed(_ close: WebSocketClose) {
        if serverClose == nil { serverClose = close }
    }

    /// Ferry is about to send a close frame. - Returns: Whether to send it: `false` once one was sent or the task
    /// ended.
    mutating func sendsClose(_ close: WebSocketClose) -> Bool {
        guard sentClose == nil, !hasEnded else { return false }
        sentClose = close
        return true
    }

    /// The task completed. - Returns: The waiter of an upgrade that never opened (to resume with
    /// ``Opening/failed(expired:)`` or ``Opening/refused(_:)``), and those waiting for the end.
    mutating func completed() -> (opening: (OpenWaiter, Opening)?, ended: [EndWaiter]) {
        let opening: (OpenWaiter, Opening)?
        switch phase {
        case .connecting(let waiter): opening = waiter.map { ($0, failure) }
        case .open, .ended: opening = nil
        }
        phase = .ended
        defer { endWaiters = [] }
        return (opening, endWaiters)
    }

    /// A task waits for the end. - Returns: `true` when the task already completed (resume the waiter now).
    mutating func waitForEnd(_ waiter: EndWaiter) -> Bool {
        if hasEnded { return true }
        endWaiters.append(waiter)
        return false
    }

    // MARK: Keep-alive

    /// A keep-alive ping falls due. - Returns: Whether to send it: `false` when the previous one is still unanswered,
    /// and so the peer is taken for gone.
    mutating func keepAlivePingDue() -> Bool {
        guard !pingInFlight else { return false }
        pingInFlight = true
        return true
    }

    /// The peer answered: a pong, or any message.
    mutating func peerAnswered() {
        pingInFlight = false
    }
}

/// How a `URLSessionWebSocketTask`'s upgrade ended for the task awaiting it.
enum URLSessionWebSocketOpening: Equatable {
    /// The server accepted the upgrade.
    case opened
    /// The task completed before it opened (refused, unreachable, cancelled), or the handshake's time ran out.
    case failed(expired: Bool)
    /// Ferry refused the server's TLS as the transport's policy says (a pin not in the chain, an untrusted root).
    case refused(FerryError)

    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.opened, .opened): true
        case (.failed(let left), .failed(let right)): left == right
        // The same reason and message: enough to tell refusals apart in the machine's tests.
        case (.refused(let left), .refused(let right)): left.reason == right.reason && "\(left)" == "\(right)"
        default: false
        }
    }
}
