#if WebSocket
@testable import Ferry
import NIOCore
import NIOEmbedded
import Testing

@Suite("A WebSocket handshake's deadline (WebSocket trait)")
struct HandshakeDeadlineTests {
    @Test func itIsTheShorterOfTheIdleAndTheTotalTimeout() {
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        let deadline = HandshakeDeadline(idle: .seconds(30), total: .seconds(2), now: start)
        #expect(deadline.end == start + .seconds(2))
        #expect(deadline.kind == .total)
        let idle = HandshakeDeadline(idle: .seconds(1), total: .seconds(2), now: start)
        #expect(idle.end == start + .seconds(1))
        #expect(idle.kind == .idle)
    }

    @Test func everyStepSharesOneInstant() {
        // Given a handshake with 5 s, started at 1 s on the loop's clock
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
        let deadline = HandshakeDeadline(idle: .seconds(5), total: nil, now: start)
        #expect(deadline.end == start + .seconds(5))
        // When 2 s went by connecting, the attempt gets what is left, and its running out is the deadline's
        let connect = deadline.connectTimeout(limit: .seconds(10), now: start + .seconds(2))
        #expect(connect.timeout == .seconds(3))
        #expect(connect.isTheDeadline)
        // unless the transport's connect timeout is shorter, which is then a host that cannot be reached
        let short = deadline.connectTimeout(limit: .seconds(1), now: start + .seconds(2))
        #expect(short.timeout == .seconds(1))
        #expect(!short.isTheDeadline)
        // A proxy's answer is due by the same instant, not 5 s after the proxy was reached
        #expect(deadline.end(orIn: .seconds(10), now: start + .seconds(4)) == start + .seconds(5))
        // Past the instant, nothing is left
        #expect(deadline.connectTimeout(limit: .seconds(10), now: start + .seconds(6)).timeout == .zero)
    }

    @Test func withoutATimeoutTheTransportsLimitsApply() {
        let now = NIODeadline.uptimeNanoseconds(1_000_000_000)
        let deadline = HandshakeDeadline(idle: nil, total: nil, now: now)
        #expect(deadline.end == nil)
        let connect = deadline.connectTimeout(limit: .seconds(10), now: now)
        #expect(connect.timeout == .seconds(10))
        #expect(!connect.isTheDeadline)
        #expect(deadline.end(orIn: .seconds(10), now: now) == now + .seconds(10))
    }

    @Test func cancellingClosesEveryConnectionAttempt() throws {
        // Given two connection attempts (Happy Eyeballs: the first may win after the second started)
        let deadline = HandshakeDeadline(idle: nil, total: nil)
        let first = EmbeddedChannel()
        let second = EmbeddedChannel()
        for channel in [first, second] {
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            deadline.attach(channel)
        }
        // When the awaiting task is cancelled, then both are closed, the winner whichever it was
        deadline.cancel()
        #expect(!first.isActive)
        #expect(!second.isActive)
        // and an attempt that starts later is closed at once
        let third = EmbeddedChannel()
        try third.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        deadline.attach(third)
        #expect(!third.isActive)
    }

    @Test func aCancellationBeforeTheTimeRunsOutIsWhatTheHandshakeEndsWith() {
        // Given a handshake whose awaiting task was cancelled
        let deadline = HandshakeDeadline(idle: .seconds(1), total: nil)
        deadline.cancel()
        // When its timer fires before the closed channel ends the handshake
        deadline.expire()
        // Then the cancellation, which came first, stands
        #expect(!deadline.hasExpired)
    }

    @Test func theTimeRunningOutBeforeACancellationIsWhatTheHandshakeEndsWith() {
        let deadline = HandshakeDeadline(idle: .seconds(1), total: nil)
        deadline.expire()
        deadline.cancel()
        #expect(deadline.hasExpired)
    }
}
#endif
