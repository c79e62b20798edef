#if !WebSocket && !canImport(Darwin)
import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("WebSockets in a build without the WebSocket trait")
struct WebSocketWithoutTraitTests {
    @Test func everyUseFailsAtOnceNamingTheTrait() async throws {
        // Given a server that would accept the upgrade, and an interceptor that must not even run
        let live = try LiveServer()
        let socket = live.session.webSocket("ws://127.0.0.1:\(live.server.port)/ws/echo")
        // When the socket is used
        let error = await #expect(throws: FerryError.self) {
            for try await _ in socket.messages {}
        }
        // Then it fails with a sentence that names the trait, and nothing reached the server
        #expect(error?.localizedDescription.contains("WebSocket package trait") == true)
        #expect(error?.recoverySuggestion?.contains("--traits WebSocket") == true)
        if case .unsupportedSetting = error?.reason {
        } else {
            Issue.record("unexpected reason \(String(describing: error))")
        }
        let sendError = await #expect(throws: FerryError.self) { try await socket.send(.text("x")) }
        #expect(sendError?.localizedDescription == error?.localizedDescription)
        #expect(live.server.requestCount == 0)
    }
}
#endif

#if !WebSocket && canImport(Darwin)
import Ferry
import FerryTestServer
import Foundation
import Testing

/// On Apple platforms a build without the trait runs WebSockets on `URLSessionWebSocketTask`.
@Suite("WebSockets on URLSession (Apple platforms, no WebSocket trait)")
struct URLSessionWebSocketLiveTests {
    @Test func runsOnURLSessionsWebSocketTask() async throws {
        // Given a session on URLSession, in a build without the trait
        let live = try LiveServer()
        let socket = live.session.webSocket("ws://127.0.0.1:\(live.server.port)/ws/echo")
        // When a message goes out and the socket is closed
        try await socket.send(.text("on URLSession"))
        var iterator = socket.messages.makeAsyncIterator()
        let echoed = try await iterator.next()
        await socket.close(code: .goingAway)
        // Then the echo came back, the head is the 101, and the server saw the close code that was asked for
        #expect(echoed == .text("on URLSession"))
        #expect(try await socket.head.statusCode == 101)
        #expect(await live.server.closeCodes(count: 1) == [1001])
    }
}
#endif
