#if WebSocket
import Ferry
import FerryTestServer
import Foundation
import Testing

/// Keep-alive pings: a peer that answers keeps the socket open; one that has gone quiet is closed with 1001.
@Suite("WebSocket keep-alive pings (WebSocket trait)")
struct LiveWebSocketKeepAliveTests {
    @Test func aPeerThatAnswersKeepsTheSocketOpen() async throws {
        // Given a socket that pings every 250 ms, with a task reading its messages
        let live = try LiveServer()
        let socket = live.session.webSocket(
            "ws/echo", options: WebSocketOptions(keepAliveInterval: Duration.milliseconds(250).scaled))
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
        // Given a socket that pings every 250 ms and only sends
        let live = try LiveServer()
        let socket = live.session.webSocket(
            "ws/echo", options: WebSocketOptions(keepAliveInterval: Duration.milliseconds(250).scaled))
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
