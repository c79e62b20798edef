#if WebSocket
import Ferry
import FerryTestServer
import Foundation
import Testing

/// Pings: ``WebSocketTask/ping(_:)`` returns with its pong; keep-alive pings keep a socket whose peer answers open,
/// and close one whose peer has gone quiet with 1001.
@Suite("WebSocket pings and keep-alive (WebSocket trait)")
struct LiveWebSocketKeepAliveTests {
    @Test func aPeerThatAnswersKeepsTheSocketOpen() async throws {
        // Given a socket that pings every second, with a task reading its messages (an interval the test server's
        // thread answers within even when the whole suite loads both cores: at 250 ms it sometimes did not, and the
        // socket was rightly taken for gone)
        let live = try LiveServer()
        let socket = live.session.webSocket(
            "ws/echo", options: WebSocketOptions(keepAliveInterval: Duration.seconds(1).scaled))
        let reader = Task {
            var received: [WebSocketMessage] = []
            for try await message in socket.messages { received.append(message) }
            return received
        }
        // When the server has answered several pings
        _ = try await socket.head
        let server = live.server
        try await waitUntil { server.receivedPingCount >= 3 }
        // Then the socket is still open and still echoes
        try await socket.send(.text("still here"))
        await socket.close(drainingMessages: true)
        #expect(try await reader.value == [.text("still here")])
        #expect(await socket.closeFrame?.code == .normalClosure)
        #expect(await live.server.closeCodes(count: 1) == [1000])
    }

    @Test func aPeerThatNeverAnswersIsClosedAsGone() async throws {
        // Given a socket that pings every 250 ms, on a server that never answers a ping
        let live = try LiveServer()
        let socket = live.session.webSocket(
            "ws/no-pong", options: WebSocketOptions(keepAliveInterval: Duration.milliseconds(250).scaled))
        // When its messages are read
        let error = await #expect(throws: FerryError.self) {
            for try await _ in socket.messages {}
        }
        // Then the socket ends as gone away, and the server was told so
        #expect(error?.reason == .webSocketClosed(.goingAway))
        #expect(live.server.receivedPingCount >= 1)
        #expect(await live.server.closeCodes(count: 1) == [1001])
    }

    @Test func aSocketNobodyReadsStillSeesThePongs() async throws {
        // Given a socket that pings every second (as above) and only sends
        let live = try LiveServer()
        let socket = live.session.webSocket(
            "ws/echo", options: WebSocketOptions(keepAliveInterval: Duration.seconds(1).scaled))
        try await socket.send(.text("one"))
        // When the server has answered several pings
        let server = live.server
        try await waitUntil { server.receivedPingCount >= 4 }
        // Then the socket is still open: it sends, and its one unread echo and the next are there to read
        try await socket.send(.text("two"))
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("one"))
        #expect(try await messages.next() == .text("two"))
        await socket.close()
        #expect(await live.server.closeCodes(count: 1) == [1000])
    }

    @Test func aPingReturnsOnceItsPongArrivesEvenWithNobodyReadingMessages() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket("ws/echo")
        try await socket.send(.text("unread"))
        let roundTrip = try await socket.ping(Data("rtt".utf8))
        #expect(roundTrip > .zero)
        #expect(live.server.receivedPingCount == 1)
        // Two pings at once: each gets its own pong
        async let first = socket.ping(Data("a".utf8))
        async let second = socket.ping(Data("b".utf8))
        _ = try await (first, second)
        #expect(live.server.receivedPingCount == 3)
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("unread"))
        await socket.close()
    }

    @Test func aPingThePeerNeverAnswersEndsWithTheSocketOrItsTask() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket("ws/no-pong")
        // Cancelling the awaiting task stops the wait; the socket stays open
        let server = live.server
        let waiting = Task { try await socket.ping() }
        try await waitUntil { server.receivedPingCount == 1 }
        waiting.cancel()
        let cancelled = await waiting.result
        #expect(Self.reason(cancelled) == .cancelled)
        try await socket.send(.text("still open"))
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("still open"))
        // A ping still waiting when the socket closes fails with the close code
        let pending = Task { try await socket.ping() }
        try await waitUntil { server.receivedPingCount == 2 }
        await socket.close()
        let closed = await pending.result
        #expect(Self.reason(closed) == .webSocketClosed(.normalClosure))
    }

    private static func reason<Value>(_ result: Result<Value, any Error>) -> FerryError.Reason? {
        guard case .failure(let error) = result else { return nil }
        return (error as? FerryError)?.reason
    }

    @Test func noPingsWithoutKeepAlive() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket("ws/echo")
        try await socket.send(.text("one"))
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("one"))
        await socket.close()
        #expect(live.server.receivedPingCount == 0)
    }
}
#endif
