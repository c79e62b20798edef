#if WebSocket
import Ferry
import FerryTestServer
import Foundation
import Testing

#if Tracing
import InMemoryTracing
import Tracing
#endif

/// The handshake as one request of the session: monitors see it, redirects are followed, cookies set on the way
/// are sent.
@Suite("WebSocket handshakes through the session (WebSocket trait)")
struct LiveWebSocketHandshakeTests {
    @Test func monitorsSeeTheHandshakeAsARequest() async throws {
        // Given a session with a monitor
        let monitor = RecordingMonitor()
        let live = try LiveServer { $0.eventMonitors = [monitor] }
        // When a socket opens and closes
        let socket = live.session.webSocket("ws/echo")
        #expect(try await socket.head.statusCode == 101)
        await socket.close()
        // Then the monitor saw one request, from its making to its 101
        try await waitUntil { monitor.events().last?.hasPrefix("completed") == true }
        #expect(monitor.events() == ["created /ws/echo", "attempt 1", "head 101", "completed 101 retries 0"])
    }

    @Test func monitorsSeeARefusedHandshakeEnd() async throws {
        let monitor = RecordingMonitor()
        let live = try LiveServer { $0.eventMonitors = [monitor] }
        let socket = live.session.webSocket("status/403")
        await #expect(throws: FerryError.self) { try await socket.head }
        try await waitUntil { monitor.events().last?.hasPrefix("completed") == true }
        #expect(monitor.events() == ["created /status/403", "attempt 1", "head 403", "completed 403 retries 0"])
    }

    @Test(arguments: ["/ws/echo", "ws"])
    func aRedirectedHandshakeIsFollowed(location: String) async throws {
        // Given a path that redirects to the echo socket, relatively or with a ws:// URL
        let monitor = RecordingMonitor()
        let live = try LiveServer { $0.eventMonitors = [monitor] }
        let target = location == "ws" ? "ws://127.0.0.1:\(live.server.port)/ws/echo" : location
        let escaped = try #require(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let socket = live.session.webSocket("redirect-to?url=\(escaped)&status_code=307")
        // When it is used
        try await socket.send(.text("after a redirect"))
        var messages = socket.messages.makeAsyncIterator()
        // Then it reached the echo socket, and the monitor saw the redirect
        #expect(try await messages.next() == .text("after a redirect"))
        #expect(try await socket.head.url.absoluteString == "ws://127.0.0.1:\(live.server.port)/ws/echo")
        await socket.close()
        try await waitUntil { monitor.events().last?.hasPrefix("completed") == true }
        #expect(
            monitor.events() == [
                "created /redirect-to", "attempt 1", "head 307", "redirect /ws/echo", "head 101",
                "completed 101 retries 0",
            ])
    }

    @Test func aRedirectsCookieIsSentWithTheNextUpgrade() async throws {
        let live = try LiveServer { $0.cookieJar = CookieJar() }
        let socket = live.session.webSocket("cookies/redirect-to?url=%2Fws%2Fecho&set=flavour%3Doat%3B%20Path%3D%2F")
        #expect(try await socket.head.statusCode == 101)
        let upgrade = try #require(live.server.receivedRequests.last)
        #expect(upgrade.path == "/ws/echo")
        #expect(upgrade.header("Cookie") == "flavour=oat")
        await socket.close()
    }

    @Test func aSessionThatFollowsNoRedirectRefusesTheUpgrade() async throws {
        let live = try LiveServer { $0.redirectPolicy = .never }
        let socket = live.session.webSocket("redirect-to?url=%2Fws%2Fecho")
        let error = await #expect(throws: FerryError.self) { try await socket.head }
        #expect(error?.reason == .unacceptableStatus(302))
        #expect(error?.response?.headers["Location"] == "/ws/echo")
    }

    @Test func aRedirectLoopEndsAtTheLimit() async throws {
        let live = try LiveServer { $0.redirectPolicy = .follow(limit: 3) }
        let socket = live.session.webSocket("redirect-loop")
        let error = await #expect(throws: FerryError.self) { try await socket.head }
        #expect(error?.reason == .tooManyRedirects(limit: 3))
        #expect(live.server.receivedRequests.count { $0.path == "/redirect-loop" } == 4)
    }

    #if Tracing
    @Test func theHandshakeIsAClientSpanWhoseTraceTheUpgradeCarries() async throws {
        let tracer = InMemoryTracer()
        let live = try LiveServer { $0.tracer = tracer }
        let socket = live.session.webSocket("ws/echo")
        #expect(try await socket.head.statusCode == 101)
        let span = try #require(tracer.finishedSpans.first)
        #expect(tracer.finishedSpans.count == 1)
        #expect(span.operationName == "HTTP GET")
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(101))
        let upgrade = try #require(live.server.receivedRequests.last)
        #expect(upgrade.header(InMemoryTracer.traceIDKey) == span.traceID)
        await socket.close()
    }
    #endif
}
#endif
