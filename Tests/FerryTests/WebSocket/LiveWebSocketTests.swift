#if WebSocket
import Ferry
import FerryTestServer
import Foundation
import Testing

/// A recording adapter that adds a header to every request it sees.
private struct TraceHeaderAdapter: RequestInterceptor {
    func adapt(_ request: Request, attempt: Int) async throws -> Request {
        var request = request
        request.headers.update(name: "traceparent", value: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        return request
    }
}

@Suite("WebSockets against the test server (WebSocket trait)")
struct LiveWebSocketTests {
    private func socketURL(_ server: TestServer, _ path: String) -> String {
        "ws://127.0.0.1:\(server.port)\(path)"
    }

    @Test func echoesTextAndBinary() async throws {
        // Given a socket on the echo endpoint
        let live = try LiveServer()
        let socket = live.session.webSocket(socketURL(live.server, "/ws/echo"))
        // When a text and a binary message go out
        try await socket.send(.text("héllo"))
        try await socket.send(.binary(Data([0, 1, 2, 255])))
        var iterator = socket.messages.makeAsyncIterator()
        // Then both come back, in order and intact
        #expect(try await iterator.next() == .text("héllo"))
        #expect(try await iterator.next() == .binary(Data([0, 1, 2, 255])))
        #expect(try await socket.head.statusCode == 101)
        await socket.close()
        #expect(try await iterator.next() == nil)
        #expect(await socket.closeFrame?.code == .normalClosure)
        let closeCodes = await live.server.closeCodes(count: 1)
        #expect(closeCodes == [1000])
    }

    @Test func httpURLsStandForWebSocketURLs() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket("ws/echo")
        try await socket.send(.text("relative"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("relative"))
        #expect(try await socket.head.url.scheme == "ws")
        await socket.close()
    }

    @Test func reassemblesFragmentsAcrossASplitCharacterAndAPing() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket(socketURL(live.server, "/ws/fragmented"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("Hello, wörld"))
        await socket.close()
    }

    @Test func answersThePingOfTheServer() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket(socketURL(live.server, "/ws/ping"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("pong: are you there"))
        try await socket.sendPing(Data("hi".utf8))
        try await socket.send(.text("after ping"))
        #expect(try await iterator.next() == .text("after ping"))
        await socket.close()
    }

    @Test func aDrainingCloseStillDeliversTheRepliesOnTheirWay() async throws {
        // Given three messages sent to the echo endpoint, their replies not read yet
        let live = try LiveServer()
        let socket = live.session.webSocket(socketURL(live.server, "/ws/echo"))
        for text in ["a", "b", "c"] { try await socket.send(.text(text)) }
        // When another task closes, draining, while this one iterates
        async let closed: Void = socket.close(drainingMessages: true)
        var received: [WebSocketMessage] = []
        for try await message in socket.messages { received.append(message) }
        await closed
        // Then every reply arrived, in order, before the end; the close was 1000
        #expect(received == [.text("a"), .text("b"), .text("c")])
        #expect(await socket.closeFrame?.code == .normalClosure)
        #expect(await live.server.closeCodes(count: 1) == [1000])
    }

    @Test func invalidUTF8ClosesWith1007() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket(socketURL(live.server, "/ws/bad-utf8"))
        let error = await #expect(throws: FerryError.self) {
            for try await _ in socket.messages {}
        }
        #expect(error?.reason == .webSocketClosed(.invalidPayload))
        let closeCodes = await live.server.closeCodes(count: 1)
        #expect(closeCodes == [1007])
        #expect(error?.localizedDescription.contains("not valid UTF-8") == true)
    }

    @Test(arguments: ["/ws/oversize?size=4096", "/ws/oversize-fragmented?size=4096"])
    func aMessageOverTheLimitClosesWith1009(path: String) async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket(
            socketURL(live.server, path), options: WebSocketOptions(maximumMessageSize: 1024))
        let error = await #expect(throws: FerryError.self) {
            for try await _ in socket.messages {}
        }
        #expect(error?.reason == .webSocketClosed(.messageTooBig))
        let closeCodes = await live.server.closeCodes(count: 1)
        #expect(closeCodes == [1009])
    }

    @Test func aMessageUnderTheLimitArrives() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket(
            socketURL(live.server, "/ws/oversize-fragmented?size=4096"),
            options: WebSocketOptions(maximumMessageSize: 8192))
        var iterator = socket.messages.makeAsyncIterator()
        let message = try await iterator.next()
        #expect(message == .binary(TestServer.patternBytes(count: 4096)))
        await socket.close()
    }

    /// The client answers a valid close code with 1000, an invalid one (999) with 1002 (protocol error).
    @Test(arguments: [(1000, 1000), (1011, 1000), (4000, 1000), (999, 1002)])
    func theServersCloseCodeIsReadable(code: Int, answer: Int) async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket(socketURL(live.server, "/ws/close?code=\(code)"))
        var received: [WebSocketMessage] = []
        for try await message in socket.messages { received.append(message) }
        #expect(received.isEmpty)
        let close = await socket.closeFrame
        #expect(close?.code == WebSocketCloseCode(rawValue: UInt16(code)))
        #expect(close?.reason == "bye")
        let closeCodes = await live.server.closeCodes(count: 1)
        #expect(closeCodes == [answer])
    }

    @Test func negotiatesPermessageDeflateWhenAsked() async throws {
        // Given a server that compresses its first message when permessage-deflate is negotiated
        let live = try LiveServer()
        let socket = live.session.webSocket(
            socketURL(live.server, "/ws/deflate"), options: WebSocketOptions(offersCompression: true))
        // When the client offers it, then the message arrives decompressed, and echoes still work
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("compressed hello"))
        #expect(try await socket.head.headers["Sec-WebSocket-Extensions"] == "permessage-deflate")
        let offer = live.server.receivedRequests.last?.header("Sec-WebSocket-Extensions")
        #expect(offer?.hasPrefix("permessage-deflate") == true)
        try await socket.send(.text("small"))
        #expect(try await iterator.next() == .text("small"))
        await socket.close()
    }

    @Test func compressionIsNotOfferedByDefault() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket(socketURL(live.server, "/ws/deflate"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("compressed hello"))
        #expect(live.server.receivedRequests.last?.header("Sec-WebSocket-Extensions") == nil)
        #expect(try await socket.head.headers["Sec-WebSocket-Extensions"] == nil)
        await socket.close()
    }

    @Test func negotiatesASubprotocol() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket(socketURL(live.server, "/ws/echo"), protocols: ["chat", "ferry.v1"])
        #expect(try await socket.subprotocol == "ferry.v1")
        let offered = live.server.receivedRequests.last?.header("Sec-WebSocket-Protocol")
        #expect(offered == "chat, ferry.v1")
        await socket.close()
    }

    @Test func aSubprotocolThatWasNotOfferedFailsTheHandshake() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket(socketURL(live.server, "/ws/wrong-protocol"), protocols: ["ferry.v1"])
        let error = await #expect(throws: FerryError.self) { try await socket.send(.text("x")) }
        #expect(error?.reason == .transport(.invalidResponse))
        #expect(error?.response?.statusCode == 101)
    }

    @Test func interceptorsHeadersAndCookiesReachTheUpgrade() async throws {
        // Given a session with an interceptor, an authentication interceptor and a cookie for the server
        let jar = CookieJar()
        let live = try LiveServer { configuration in
            configuration.interceptors = [
                TraceHeaderAdapter(), AuthenticationInterceptor(credential: .bearer("token-1")) { _ in .bearer("x") },
            ]
            configuration.cookieJar = jar
        }
        _ = jar.store(setCookieFields: ["session=abc"], for: live.server.url("/"))
        // When the socket opens
        let socket = live.session.webSocket(socketURL(live.server, "/ws/echo"), headers: ["X-Extra": "1"])
        _ = try await socket.head
        // Then the upgrade request carried what the pipeline added
        let upgrade = try #require(live.server.receivedRequests.last)
        #expect(upgrade.path == "/ws/echo")
        #expect(upgrade.header("traceparent")?.hasPrefix("00-0af7651916cd43dd8448eb211c80319c") == true)
        #expect(upgrade.header("Authorization") == "Bearer token-1")
        #expect(upgrade.header("Cookie") == "session=abc")
        #expect(upgrade.header("X-Extra") == "1")
        await socket.close()
    }

    @Test(arguments: [401, 404]) func aRefusedUpgradeIsAFerryErrorWithTheStatus(status: Int) async throws {
        let live = try LiveServer()
        let path = status == 404 ? "/no/such/socket" : "/status/\(status)"
        let socket = live.session.webSocket(socketURL(live.server, path))
        let error = await #expect(throws: FerryError.self) {
            for try await _ in socket.messages {}
        }
        #expect(error?.reason == .unacceptableStatus(status))
        #expect(error?.response?.statusCode == status)
        #expect(error?.request?.url.path == path)
        if status == 404 {
            #expect(error?.bodyPrefix.map { String(decoding: $0, as: UTF8.self) }?.contains("not found") == true)
        }
    }

    @Test func aRefusalWhoseBodyNeverEndsEndsTheHandshakeOnceItsPrefixIsIn() async throws {
        // Given a server that refuses the upgrade with a body that never ends (4,096 bytes of 100,000, then nothing),
        // and a long idle timeout
        let live = try LiveServer { $0.idleTimeout = Duration.seconds(30).scaled }
        live.server.setRoute("/endless") { _ in .fault(.stalledBody(declaredLength: 100_000, sentLength: 4_096)) }
        let socket = live.session.webSocket(socketURL(live.server, "/endless"))
        // When the socket is used, then the refusal ends the handshake as soon as the error's body prefix is in: its
        // status and prefix, not the idle timeout
        let error = await #expect(throws: FerryError.self) { _ = try await socket.head }
        #expect(error?.reason == .unacceptableStatus(200))
        #expect(error?.bodyPrefix?.count == FerryError.bodyPrefixLimit)
        let server = live.server
        try await waitUntil(limit: .seconds(10)) { server.openConnectionCount == 0 }
    }

    @Test func cancellingTheReadingTaskClosesWith1001() async throws {
        // Given a reader waiting on a socket the server keeps quiet on
        let live = try LiveServer()
        let socket = live.session.webSocket(socketURL(live.server, "/ws/echo"))
        _ = try await socket.head
        let reader = readingToTheEnd(socket)
        // When its task is cancelled
        reader.cancel()
        // Then the reader gets a cancellation, and the socket closes with 1001
        #expect(await reader.value == .cancelled)
        await socket.close()
        let closeCodes = await live.server.closeCodes(count: 1)
        #expect(closeCodes == [1001])
        #expect(await socket.closeFrame?.code == .goingAway)
    }

    @Test func lettingTheLastCopyGoClosesWith1001() async throws {
        // Given an open socket whose only copy is in a function that returns
        let live = try LiveServer()
        func openAndForget() async throws {
            let socket = live.session.webSocket(socketURL(live.server, "/ws/echo"))
            try await socket.send(.text("hello"))
        }
        try await openAndForget()
        // Then the socket is closed with 1001 (going away) once the task is gone
        let closeCodes = await live.server.closeCodes(count: 1)
        #expect(closeCodes == [1001])
    }

    @Test func sendingAfterCloseFails() async throws {
        let live = try LiveServer()
        let socket = live.session.webSocket(socketURL(live.server, "/ws/echo"))
        try await socket.send(.text("one"))
        await socket.close(code: WebSocketCloseCode(rawValue: 4001), reason: "done")
        let error = await #expect(throws: FerryError.self) { try await socket.send(.text("two")) }
        if case .webSocketClosed = error?.reason {} else { Issue.record("unexpected \(String(describing: error))") }
        let closeCodes = await live.server.closeCodes(count: 1)
        #expect(closeCodes == [4001])
    }

    @Test func aServerThatNeverAnswersTheUpgradeTimesOut() async throws {
        // Given a server that accepts the connection and never answers, and a short idle timeout
        let live = try LiveServer { $0.idleTimeout = .milliseconds(300) }
        let socket = live.session.webSocket(socketURL(live.server, "/fault/stall-headers"))
        // When the socket is used, then the handshake fails with the idle timeout instead of hanging
        let error = await #expect(throws: FerryError.self) { _ = try await socket.head }
        #expect(error?.reason == .timedOut(.idle))
        #expect(error?.localizedDescription.contains("idle timeout") == true)
    }

    @Test func theTotalTimeoutBoundsTheHandshake() async throws {
        // Given a long idle timeout but a short total one
        let live = try LiveServer {
            $0.idleTimeout = Duration.seconds(30).scaled
            $0.totalTimeout = .milliseconds(300)
        }
        let socket = live.session.webSocket(socketURL(live.server, "/fault/stall-headers"))
        // When the server never answers, then the total timeout ends the handshake
        let start = ContinuousClock.now
        let error = await #expect(throws: FerryError.self) { _ = try await socket.head }
        #expect(error?.reason == .timedOut(.total))
        // No hang: well under the 30 s idle timeout, and wide enough for a suite that holds both cores for seconds.
        #expect(ContinuousClock.now - start < Duration.seconds(20).scaled)
    }

    @Test func cancellingTheTaskThatAwaitsTheHandshakeEndsItAtOnce() async throws {
        // Given a handshake the server never answers, with a long idle timeout
        let live = try LiveServer { $0.idleTimeout = Duration.seconds(30).scaled }
        let socket = live.session.webSocket(socketURL(live.server, "/fault/stall-headers"))
        let waiting = Task { try await socket.head }
        #expect(await live.server.waitForRequests(count: 1))
        // When its task is cancelled
        let start = ContinuousClock.now
        waiting.cancel()
        let result = await waiting.result
        // Then it ends as cancelled, long before the idle timeout, and its connection is closed
        guard case .failure(let error as FerryError) = result else {
            Issue.record("expected a FerryError, got \(result)")
            return
        }
        #expect(error.reason == .cancelled)
        #expect(ContinuousClock.now - start < Duration.seconds(10).scaled)
        let server = live.server
        try await waitUntil(limit: .seconds(10)) { server.openConnectionCount == 0 }
    }

    @Test func aConnectionRefusedIsATransportError() async throws {
        let session = Session()
        let port = try RefusingPort()
        let socket = session.webSocket("ws://127.0.0.1:\(port.port)/ws/echo")
        let error = await #expect(throws: FerryError.self) { _ = try await socket.head }
        #expect(error?.reason == .transport(.cannotConnect))
    }

    @Test(arguments: ["/fault/close", "/fault/reset"])
    func aServerThatClosesBeforeAnsweringIsALostConnection(path: String) async throws {
        // Given a server that takes the upgrade request, then closes the connection cleanly or resets it
        let live = try LiveServer()
        let socket = live.session.webSocket(socketURL(live.server, path))
        // When the socket is used, then the handshake fails as a request does there: the connection was lost (it was
        // "cannot connect" for a close and "invalid response" for a reset, which no retry policy retries)
        let error = await #expect(throws: FerryError.self) { _ = try await socket.head }
        #expect(error?.reason == .transport(.connectionLost))
    }

    @Test(arguments: [FerryError.TimeoutKind.idle, .total])
    func aConnectionAttemptNeverAnsweredEndsWithTheHandshakesTimeout(kind: FerryError.TimeoutKind) async throws {
        // Given a port where a connection attempt is never answered, and a short timeout of one kind. The handshake's
        // time is also the engine's connect timeout, whose running out was reported as "cannot connect".
        let stalling = try StallingPort(at: .connecting)
        let socket = Session.timingOut(kind).webSocket("ws://127.0.0.1:\(stalling.port)/ws/echo")
        // When the socket is used, then that timeout ends the handshake
        let error = await #expect(throws: FerryError.self) { _ = try await socket.head }
        withExtendedLifetime(stalling) {}
        #expect(error?.reason == .timedOut(kind))
    }

    #if AsyncHTTPClient
    @Test(arguments: [ProxyServer.Kind.http, .socks5], [StallingPort.Stage.answering, .connecting])
    func aProxyThatNeverAnswersEndsWithTheHandshakesTimeout(
        proxy: ProxyServer.Kind, stage: StallingPort.Stage
    ) async throws {
        // Given a proxy that takes the connection and never answers the CONNECT or the SOCKS5 greeting, or one whose
        // connection attempts are never answered (nothing of the tunnel has started then, so only the connect
        // timeout, what is left of the handshake's time, can end it)
        let stalling = try StallingPort(at: stage)
        for kind in [FerryError.TimeoutKind.idle, .total] {
            let transport = try AsyncHTTPClientTransport(proxy: stalling.proxy(proxy))
            let socket = Session.timingOut(kind, transport: transport).webSocket("ws://127.0.0.1:1/ws/echo")
            // When the socket is used, then the handshake's timeout ends it, as it would a request's (it was "cannot
            // connect" for a connection to an HTTP proxy never answered)
            let error = await #expect(throws: FerryError.self) { _ = try await socket.head }
            #expect(error?.reason == .timedOut(kind), "\(kind)")
        }
        withExtendedLifetime(stalling) {}
    }

    @Test(arguments: [ProxyServer.Kind.http, .socks5])
    func aProxyThatIsDownFailsTheHandshakeAtOnceNamingTheProxy(proxy: ProxyServer.Kind) async throws {
        // Given a proxy whose port refuses every connection, and a long timeout
        let refusing = try RefusingPort()
        let transport = try AsyncHTTPClientTransport(proxy: refusing.proxy(proxy))
        let session = Session(
            configuration: Session.Configuration(idleTimeout: Duration.seconds(30).scaled, transport: transport))
        let socket = session.webSocket("ws://127.0.0.1:1/ws/echo")
        // When the socket is used, then the handshake fails as a host that cannot be reached, naming the proxy
        let error = await #expect(throws: FerryError.self) { _ = try await socket.head }
        withExtendedLifetime(refusing) {}
        #expect(error?.reason == .transport(.cannotConnect))
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("could not reach the proxy \(proxy)://127.0.0.1:\(refusing.port)"), "\(message)")
        #expect(message.hasSuffix("connection refused."), "\(message)")
    }

    @Test func aConnectTimeoutShorterThanTheHandshakesTimeIsAHostThatCannotBeReached() async throws {
        // Given a transport whose connect timeout (300 ms) comes long before the handshake's idle timeout
        var configuration = AsyncHTTPClientTransport.defaultConfiguration
        configuration.timeout.connect = .milliseconds(300)
        let session = Session(
            configuration: Session.Configuration(
                idleTimeout: Duration.seconds(30).scaled,
                transport: AsyncHTTPClientTransport(configuration: configuration)))
        let stalling = try StallingPort(at: .connecting)
        let socket = session.webSocket("ws://127.0.0.1:\(stalling.port)/ws/echo")
        // When a connection attempt is never answered, then it ends at the connect timeout, as a request's does
        let error = await #expect(throws: FerryError.self) { _ = try await socket.head }
        withExtendedLifetime(stalling) {}
        #expect(error?.reason == .transport(.cannotConnect))
        #expect(error?.localizedDescription.contains("timed out") == true)
    }
    #endif
}
#endif
