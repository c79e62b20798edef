#if WebSocket
import Ferry
import FerryLocking
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

    @Test func theSessionsRetryPolicyStartsARefusedHandshakeAgain() async throws {
        // Given an endpoint that is unavailable once, then sends the upgrade on to the echo socket
        let monitor = RecordingMonitor()
        let live = try LiveServer {
            $0.eventMonitors = [monitor]
            $0.interceptors = [RetryPolicy(baseDelay: .zero)]
        }
        let calls = Locked(0)
        live.server.setRoute("/flaky") { _ in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            return call == 1
                ? TestResponse(status: 503, headers: [("Content-Length", "0")], body: .data(Data()))
                : TestResponse(
                    status: 307, headers: [("Location", "/ws/echo"), ("Content-Length", "0")], body: .data(Data()))
        }
        // When a socket is used on it
        let socket = live.session.webSocket("flaky")
        try await socket.send(.text("second time lucky"))
        var messages = socket.messages.makeAsyncIterator()
        // Then the second attempt reached the echo socket, and the monitor saw the retry
        #expect(try await messages.next() == .text("second time lucky"))
        await socket.close()
        try await waitUntil { monitor.events().last?.hasPrefix("completed") == true }
        #expect(
            monitor.events() == [
                "created /flaky", "adapted 1", "attempt 1", "head 503",
                "retry unacceptable status code 503 after 0.0 seconds", "adapted 2", "attempt 2", "head 307",
                "redirect /ws/echo", "head 101", "completed 101 retries 1",
            ])
    }

    @Test func anExpiredTokenIsRefreshedAndTheHandshakeSentAgain() async throws {
        // Given an endpoint that wants a fresh token, and a session whose token is stale
        let refreshes = Locked(0)
        let authentication = AuthenticationInterceptor(credential: .bearer("stale")) { _ in
            refreshes.withLock { $0 += 1 }
            return .bearer("fresh")
        }
        let live = try LiveServer { $0.interceptors = [authentication] }
        live.server.setRoute("/private") { request in
            request.header("Authorization") == "Bearer fresh"
                ? TestResponse(
                    status: 307, headers: [("Location", "/ws/echo"), ("Content-Length", "0")], body: .data(Data()))
                : TestResponse(status: 401, headers: [("Content-Length", "0")], body: .data(Data()))
        }
        // When the socket opens
        #expect(try await live.session.webSocket("private").head.statusCode == 101)
        // Then the 401 made the interceptor refresh once, and the second upgrade carried the new token
        #expect(refreshes.withLock { $0 } == 1)
        let upgrades = live.server.receivedRequests.filter { $0.path == "/private" }
        #expect(upgrades.map { $0.header("Authorization") } == ["Bearer stale", "Bearer fresh"])
    }

    @Test func aHandshakeIsNotRetriedWithoutARetrier() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket("status/503")
        let error = await #expect(throws: FerryError.self) { try await socket.head }
        #expect(error?.reason == .unacceptableStatus(503))
        #expect(live.server.receivedRequests.count { $0.path == "/status/503" } == 1)
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
