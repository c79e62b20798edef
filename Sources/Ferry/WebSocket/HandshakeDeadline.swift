#if WebSocket
import NIOCore

/// The one instant a handshake must be over by, whether it ran out, and the handshake's channels: each connection
/// attempt's (Happy Eyeballs may make two), closed when the task awaiting the handshake is cancelled (SwiftNIO's
/// futures do not end on cancellation).
///
/// The instant is fixed when the handshake starts: the connection, a proxy's tunnel, TLS, the upgrade and a refusal's
/// body all share it, so a slow proxy leaves the upgrade only what is left, and the handshake as a whole never takes
/// longer than its timeout.
final class HandshakeDeadline: Sendable {
    /// Which of the request's timeouts ``end`` comes from: the idle one, or the total one when that is shorter.
    let kind: FerryError.TimeoutKind
    /// When the time runs out, or `nil` for no limit.
    let end: NIODeadline?
    private let state = Locked(State())

    private struct State: Sendable {
        var expired = false
        var cancelled = false
        var channels: [any Channel] = []
    }

    /// - Parameters:
    ///   - idle: The request's idle timeout, bounding the handshake as a whole.
    ///   - total: What is left of its total timeout.
    ///   - now: The instant the handshake starts.
    init(idle: Duration?, total: Duration?, now: NIODeadline = .now()) {
        let (timeout, kind) = WebSocketHandshake.timeout(idle: idle, total: total)
        self.kind = kind
        end = timeout.map { now + TimeAmount($0) }
    }

    /// The connection attempt's timeout: what is left of the time, or `limit` (the transport's connect timeout) when
    /// that is shorter or there is no deadline; and whether the deadline is what it ends at, so that an attempt
    /// running out is the handshake's timeout rather than a host that cannot be reached.
    func connectTimeout(limit: TimeAmount, now: NIODeadline = .now()) -> (timeout: TimeAmount, isTheDeadline: Bool) {
        guard let end else { return (limit, false) }
        let left = max(end - now, .zero)
        return left <= limit ? (left, true) : (limit, false)
    }

    /// The instant a step without a deadline of its own (a proxy's answer) must be done by: the deadline, or `limit`
    /// from now when there is none.
    func end(orIn limit: TimeAmount, now: NIODeadline = .now()) -> NIODeadline {
        end ?? now + limit
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

    /// A connection attempt's channel; closed at once when the awaiting task was cancelled already.
    func attach(_ channel: any Channel) {
        let cancelled = state.withLock { state in
            state.channels.append(channel)
            return state.cancelled
        }
        if cancelled { channel.close(promise: nil) }
    }

    /// The awaiting task was cancelled: every attempt's channel (now, or once attached) is closed, which ends the
    /// handshake, whichever attempt had won.
    func cancel() {
        let channels = state.withLock { state in
            state.cancelled = true
            return state.channels
        }
        for channel in channels { channel.close(promise: nil) }
    }
}
#endif
