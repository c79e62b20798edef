#if WebSocket
import NIOCore

/// The time a handshake may take and whether it ran out (its channel was then closed), and the handshake's channel,
/// closed when the task awaiting the handshake is cancelled (SwiftNIO's futures do not end on cancellation).
final class HandshakeDeadline: Sendable {
    /// The time allowed, or `nil` for no limit.
    let timeout: Duration?
    /// Which of the request's timeouts ``timeout`` is: the idle one, or the total one when that is shorter.
    let kind: FerryError.TimeoutKind
    private let state = Locked(State())

    private struct State: Sendable {
        var expired = false
        var cancelled = false
        var channel: (any Channel)?
    }

    /// - Parameters:
    ///   - idle: The request's idle timeout, bounding the handshake as a whole.
    ///   - total: What is left of its total timeout.
    init(idle: Duration?, total: Duration?) {
        (timeout, kind) = WebSocketHandshake.timeout(idle: idle, total: total)
    }

    /// Whether the time ran out.
    var hasExpired: Bool { state.withLock { $0.expired } }

    /// Notes that the time ran out, unless the awaiting task was cancelled first: the first of the two is what the
    /// handshake ends with, as for a request.
    func expire() {
        state.withLock { state in
            if !state.cancelled { state.expired = true }
        }
    }

    /// The handshake's channel, once connected; closed at once when the awaiting task was cancelled already.
    func attach(_ channel: any Channel) {
        let cancelled = state.withLock { state in
            state.channel = channel
            return state.cancelled
        }
        if cancelled { channel.close(promise: nil) }
    }

    /// The awaiting task was cancelled: the channel (now, or once attached) is closed, which ends the handshake.
    func cancel() {
        let channel = state.withLock { state in
            state.cancelled = true
            return state.channel
        }
        channel?.close(promise: nil)
    }
}
#endif
