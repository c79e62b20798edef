#if WebSocket
@testable import Ferry
import Testing

@Suite("A WebSocket handshake's deadline (WebSocket trait)")
struct HandshakeDeadlineTests {
    @Test func itIsTheShorterOfTheIdleAndTheTotalTimeout() {
        let deadline = HandshakeDeadline(idle: .seconds(30), total: .seconds(2))
        #expect(deadline.timeout == .seconds(2))
        #expect(deadline.kind == .total)
        #expect(HandshakeDeadline(idle: .seconds(1), total: .seconds(2)).kind == .idle)
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
