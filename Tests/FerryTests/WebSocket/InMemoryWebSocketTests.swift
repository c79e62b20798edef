import Ferry
import FerryLocking
import FerryTesting
import Foundation
import Testing

/// Adds a `traceparent` to every request it sees.
private struct TraceHeaderAdapter: RequestInterceptor {
    func adapt(_ request: Request, attempt: Int) async throws -> Request {
        var request = request
        request.headers.update(name: "traceparent", value: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        return request
    }
}

/// An echo endpoint: every message the client sends comes back.
private func echoServer(subprotocol: String? = nil, headers: HTTPHeaders = [:]) -> InMemoryWebSocketServer {
    InMemoryWebSocketServer(subprotocol: subprotocol, headers: headers) { connection in
        while let message = await connection.receive() {
            try await connection.send(message)
        }
    }
}

/// A session whose transport serves `routes` in memory.
private func session(
    _ routes: [InMemoryTransport.Route], recorder: RequestRecorder? = nil
) -> Session {
    Session(transport: InMemoryTransport(recorder: recorder, routes: routes))
}

@Suite("WebSockets in memory (FerryTesting)", .timeLimit(.minutes(1)))
struct InMemoryWebSocketTests {
    @Test func echoesTextAndBinary() async throws {
        // Given an echo endpoint
        let server = echoServer()
        let socket = session([.webSocket("/chat", server)]).webSocket("ws://chat.test/chat")
        // When a text and a binary message go out
        try await socket.send(.text("héllo"))
        try await socket.send(.binary(Data([0, 1, 2, 255])))
        var iterator = socket.messages.makeAsyncIterator()
        // Then both come back in order, the server recorded them, and the head is a 101 with a ws URL
        #expect(try await iterator.next() == .text("héllo"))
        #expect(try await iterator.next() == .binary(Data([0, 1, 2, 255])))
        #expect(server.receivedMessages == [.text("héllo"), .binary(Data([0, 1, 2, 255]))])
        #expect(try await socket.head.statusCode == 101)
        #expect(try await socket.head.url.absoluteString == "ws://chat.test/chat")
        // And a close ends the messages, with the server's answer and the client's code recorded
        await socket.close()
        #expect(try await iterator.next() == nil)
        #expect(await socket.closeFrame?.code == .normalClosure)
        #expect(server.clientCloses == [WebSocketClose(code: .normalClosure)])
        #expect(server.connectionCount == 1)
    }

    @Test func serverMessagesArriveInOrderThenTheServerCloses() async throws {
        // Given a server that speaks first, 50 messages, then returns
        let server = InMemoryWebSocketServer { connection in
            for index in 1...50 { try await connection.send(.text("message \(index)")) }
        }
        let socket = session([.webSocket("/feed", server)]).webSocket("ws://feed.test/feed")
        // When the client reads until the end
        var received: [WebSocketMessage] = []
        for try await message in socket.messages { received.append(message) }
        // Then every message arrived in order, the script's return closed with 1000, and the client answered it
        #expect(received == (1...50).map { .text("message \($0)") })
        #expect(await socket.closeFrame?.code == .normalClosure)
        #expect(server.clientCloses == [WebSocketClose(code: .normalClosure)])
        #expect(server.receivedMessages.isEmpty)
    }

    @Test func theServerWaitsForASlowReader() async throws {
        // Given a server that notes each message the client has read (its send returns then)
        let read = Locked<[Int]>([])
        let server = InMemoryWebSocketServer { connection in
            for index in 1...3 {
                try await connection.send(.text("\(index)"))
                read.withLock { $0.append(index) }
            }
        }
        let socket = session([.webSocket("/feed", server)]).webSocket("ws://feed.test/feed")
        _ = try await socket.head
        var iterator = socket.messages.makeAsyncIterator()
        // When the client has read nothing, then the server is stuck on its first message
        await server.waitUntilSending()
        #expect(read.withLock { $0 } == [])
        // And after each message read, the server got exactly one message further, and waits again
        for index in 1...3 {
            #expect(try await iterator.next() == .text("\(index)"))
            await server.waitUntilSending()
            #expect(read.withLock { $0 } == Array(1...index))
        }
        // Until the close that followed the last message, which ends the messages
        #expect(try await iterator.next() == nil)
    }

    /// The client answers a code that may be sent with 1000, one that may not (999, 1005) with 1002.
    @Test(arguments: [(1000, 1000), (1011, 1000), (4000, 1000), (999, 1002), (1005, 1002)])
    func theServersCloseCodeIsReadable(code: Int, answer: Int) async throws {
        let server = InMemoryWebSocketServer { connection in
            await connection.close(code: WebSocketCloseCode(rawValue: UInt16(code)), reason: "bye")
        }
        let socket = session([.webSocket("/close", server)]).webSocket("ws://close.test/close")
        var received: [WebSocketMessage] = []
        for try await message in socket.messages { received.append(message) }
        #expect(received.isEmpty)
        #expect(
            await socket.closeFrame == WebSocketClose(code: WebSocketCloseCode(rawValue: UInt16(code)), reason: "bye"))
        #expect(server.clientCloses.map(\.code?.rawValue) == [UInt16(answer)])
    }

    @Test func theScriptSeesTheClientsCloseAndCannotSendAfterIt() async throws {
        // Given a script that reads until the client closes, then tries to send
        let (events, report) = AsyncStream.makeStream(of: String.self)
        let server = InMemoryWebSocketServer { connection in
            while let message = await connection.receive() { report.yield("received \(message)") }
            report.yield("close \(connection.clientClose.map { "\($0.code?.rawValue ?? 0) \($0.reason)" } ?? "none")")
            do {
                try await connection.send(.text("too late"))
                report.yield("sent")
            } catch {
                report.yield("send failed: \(error)")
            }
            report.finish()
        }
        let socket = session([.webSocket("/chat", server)]).webSocket("ws://chat.test/chat")
        // When the client sends one message and closes with its own code
        try await socket.send(.text("one"))
        await socket.close(code: WebSocketCloseCode(rawValue: 4001), reason: "done")
        // Then the script saw the message, then the code and reason, and its send failed
        var seen: [String] = []
        for await event in events { seen.append(event) }
        #expect(
            seen == [
                "received \(WebSocketMessage.text("one"))", "close 4001 done",
                "send failed: InMemoryWebSocketServer: the WebSocket is closed",
            ])
        #expect(await socket.closeFrame == WebSocketClose(code: WebSocketCloseCode(rawValue: 4001), reason: "done"))
        // And the client cannot send either
        let error = await #expect(throws: FerryError.self) { try await socket.send(.text("two")) }
        if case .webSocketClosed = error?.reason {} else { Issue.record("unexpected \(String(describing: error))") }
    }

    @Test func cancellingTheReadingTaskClosesWith1001() async throws {
        // Given a reader waiting on a socket the server keeps quiet on
        let server = echoServer()
        let socket = session([.webSocket("/chat", server)]).webSocket("ws://chat.test/chat")
        _ = try await socket.head
        let reader = readingToTheEnd(socket)
        // When its task is cancelled
        reader.cancel()
        // Then the reader gets a cancellation, and the server sees 1001 (going away)
        #expect(await reader.value == .cancelled)
        #expect(await server.clientCloses(count: 1) == [WebSocketClose(code: .goingAway)])
        await socket.close()
        #expect(await socket.closeFrame?.code == .goingAway)
    }

    @Test func lettingTheLastCopyGoClosesWith1001() async throws {
        let server = echoServer()
        let session = session([.webSocket("/chat", server)])
        func openAndForget() async throws {
            let socket = session.webSocket("ws://chat.test/chat")
            try await socket.send(.text("hello"))
        }
        try await openAndForget()
        #expect(await server.clientCloses(count: 1) == [WebSocketClose(code: .goingAway)])
        #expect(server.receivedMessages == [.text("hello")])
    }

    @Test func aMessageOverTheLimitClosesWith1009() async throws {
        // Given a server that sends a small message, then one larger than the client accepts, then another
        let (events, report) = AsyncStream.makeStream(of: String.self)
        let server = InMemoryWebSocketServer { connection in
            try await connection.send(.binary(Data(count: 200)))
            try await connection.send(.text(String(repeating: "é", count: 101)))
            do {
                try await connection.send(.text("after"))
            } catch {
                report.yield("send failed")
            }
            report.finish()
        }
        let socket = session([.webSocket("/big", server)])
            .webSocket("ws://big.test/big", options: WebSocketOptions(maximumMessageSize: 200))
        var iterator = socket.messages.makeAsyncIterator()
        // Then the first arrives, the second (202 bytes of UTF-8) fails the messages with 1009
        #expect(try await iterator.next() == .binary(Data(count: 200)))
        let error = await #expect(throws: FerryError.self) { _ = try await iterator.next() }
        #expect(error?.reason == .webSocketClosed(.messageTooBig))
        #expect(error?.response?.statusCode == 101)
        #expect(server.clientCloses == [WebSocketClose(code: .messageTooBig)])
        #expect(await socket.closeFrame?.code == .messageTooBig)
        // And the server could not send more
        var seen: [String] = []
        for await event in events { seen.append(event) }
        #expect(seen == ["send failed"])
    }

    @Test func aScriptThatThrowsDropsTheConnection() async throws {
        struct Boom: Error {}
        let server = InMemoryWebSocketServer { connection in
            try await connection.send(.text("first"))
            throw Boom()
        }
        let socket = session([.webSocket("/drop", server)]).webSocket("ws://drop.test/drop")
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("first"))
        let error = await #expect(throws: FerryError.self) { _ = try await iterator.next() }
        #expect(error?.reason == .transport(.connectionLost))
        #expect(await socket.closeFrame == nil)
        #expect(server.clientCloses.isEmpty)
    }

    @Test func aRefusedUpgradeIsAFerryErrorWithTheStatusAndBody() async throws {
        // Given a route that answers the upgrade with a plain 403, and a cookie jar
        let jar = CookieJar()
        let transport = InMemoryTransport(routes: [
            .get(
                "/chat", StubResponse(statusCode: 403, headers: ["Set-Cookie": "tried=1"], body: Data("no entry".utf8)))
        ])
        let session = Session(configuration: Session.Configuration(transport: transport, cookieJar: jar))
        let socket = session.webSocket("ws://chat.test/chat")
        // When the socket is used
        let error = await #expect(throws: FerryError.self) {
            for try await _ in socket.messages {}
        }
        // Then the error has the status, the head, the body and the request, as the real engine's
        #expect(error?.reason == .unacceptableStatus(403))
        #expect(error?.response?.statusCode == 403)
        #expect(error?.response?.url.scheme == "ws")
        #expect(error?.bodyPrefix == Data("no entry".utf8))
        #expect(error?.request?.url.path == "/chat")
        #expect(jar.cookies(for: URL(string: "http://chat.test/")!).map(\.name) == ["tried"])
        // And every later use fails the same way
        let sendError = await #expect(throws: FerryError.self) { try await socket.send(.text("x")) }
        #expect(sendError?.reason == .unacceptableStatus(403))
    }

    @Test func aStubFailureFailsTheUpgradeAsAConnectionFailure() async throws {
        let socket = session([.get("/chat", .failure(.connectionRefused))]).webSocket("ws://chat.test/chat")
        let error = await #expect(throws: FerryError.self) { _ = try await socket.head }
        #expect(error?.reason == .transport(.cannotConnect))
        #expect(error?.request?.url.path == "/chat")
    }

    @Test func anUpgradeNoRouteMatchesFails() async throws {
        let recorder = RequestRecorder()
        let socket = session([.webSocket("/chat", echoServer())], recorder: recorder).webSocket("ws://chat.test/other")
        let error = await #expect(throws: FerryError.self) { _ = try await socket.head }
        #expect(error?.localizedDescription.contains("no route for GET /other") == true)
        #expect(recorder.unexpectedRequests.map(\.url.path) == ["/other"])
    }

    @Test func aPlainRequestToAWebSocketRouteGets426() async throws {
        let session = session([.webSocket("/chat", echoServer())])
        let error = await #expect(throws: FerryError.self) {
            _ = try await session.get("http://chat.test/chat").serializingData()
        }
        #expect(error?.reason == .unacceptableStatus(426))
        #expect(error?.response?.headers["Upgrade"] == "websocket")
    }

    @Test func negotiatesTheServersSubprotocol() async throws {
        let recorder = RequestRecorder()
        let server = echoServer(subprotocol: "ferry.v1")
        let socket = session([.webSocket("/chat", server)], recorder: recorder)
            .webSocket("ws://chat.test/chat", protocols: ["chat", "ferry.v1"])
        #expect(try await socket.subprotocol == "ferry.v1")
        #expect(try recorder.verify(.get, "/chat")?.headers["Sec-WebSocket-Protocol"] == "chat, ferry.v1")
        await socket.close()
    }

    @Test func aSubprotocolThatWasNotOfferedFailsTheHandshake() async throws {
        let server = echoServer(subprotocol: "other")
        let socket = session([.webSocket("/chat", server)]).webSocket("ws://chat.test/chat", protocols: ["ferry.v1"])
        let error = await #expect(throws: FerryError.self) { try await socket.send(.text("x")) }
        #expect(error?.reason == .transport(.invalidResponse))
        #expect(error?.response?.statusCode == 101)
        let readError = await #expect(throws: FerryError.self) {
            for try await _ in socket.messages {}
        }
        #expect(readError?.reason == .transport(.invalidResponse))
        #expect(server.receivedMessages.isEmpty)
    }

    @Test func theUpgradeRequestGoesThroughTheSession() async throws {
        // Given a session with default headers, interceptors and a cookie jar, on a recording transport
        let recorder = RequestRecorder()
        let jar = CookieJar()
        _ = jar.store(setCookieFields: ["session=abc"], for: URL(string: "http://chat.test/")!)
        let server = echoServer(headers: ["Set-Cookie": "joined=yes"])
        let configuration = Session.Configuration(
            baseURL: URL(string: "http://chat.test/"), headers: ["X-Client": "tests"],
            transport: InMemoryTransport(recorder: recorder, routes: [.webSocket("/rooms/:id", server)]),
            interceptors: [
                TraceHeaderAdapter(), AuthenticationInterceptor(credential: .bearer("token-1")) { _ in .bearer("x") },
            ],
            cookieJar: jar)
        // When a socket opens on a relative URL, with a header of its own
        let socket = Session(configuration: configuration).webSocket("rooms/7", headers: ["X-Extra": "1"])
        _ = try await socket.head
        // Then the recorder saw the upgrade request with everything the pipeline added
        let upgrade = try #require(try recorder.verify(.get, "/rooms/7"))
        #expect(upgrade.url.absoluteString == "http://chat.test/rooms/7")
        #expect(upgrade.headers["traceparent"]?.hasPrefix("00-0af7651916cd43dd8448eb211c80319c") == true)
        #expect(upgrade.headers["Authorization"] == "Bearer token-1")
        #expect(upgrade.headers["Cookie"] == "session=abc")
        #expect(upgrade.headers["X-Client"] == "tests")
        #expect(upgrade.headers["X-Extra"] == "1")
        // And the 101's cookie went into the jar (its default path is /rooms)
        #expect(Set(jar.cookies(for: URL(string: "http://chat.test/rooms/8")!).map(\.name)) == ["session", "joined"])
        await socket.close()
    }

    @Test func aRefusedUpgradeIsRetriedWhenTheSessionsRetrierSaysSo() async throws {
        // Given an endpoint that is unavailable twice, then accepts, and a session with a retry policy
        let server = echoServer()
        let calls = Locked(0)
        let transport = InMemoryTransport(routes: [
            .get("/chat") { _ in
                calls.withLock { count in
                    count += 1
                    return count < 3 ? .status(503) : .webSocket(server)
                }
            }
        ])
        let configuration = Session.Configuration(transport: transport, interceptors: [RetryPolicy(baseDelay: .zero)])
        // When the socket is used
        let socket = Session(configuration: configuration).webSocket("ws://chat.test/chat")
        try await socket.send(.text("third time"))
        var messages = socket.messages.makeAsyncIterator()
        // Then the third upgrade opened it
        #expect(try await messages.next() == .text("third time"))
        #expect(calls.withLock { $0 } == 3)
        #expect(server.connectionCount == 1)
        await socket.close()

        // And a policy that allows two attempts gives up with the second refusal
        calls.withLock { $0 = 0 }
        let strict = Session.Configuration(
            transport: transport, interceptors: [RetryPolicy(maximumAttempts: 2, baseDelay: .zero)])
        let error = await #expect(throws: FerryError.self) {
            try await Session(configuration: strict).webSocket("ws://chat.test/chat").head
        }
        #expect(error?.reason == .unacceptableStatus(503))
        #expect(calls.withLock { $0 } == 2)
    }

    @Test func aRetryThatWouldOutlastTheTotalTimeoutEndsTheHandshakeAtOnce() async throws {
        // Given an endpoint that asks for two minutes before a retry, and a session with a 10 second total timeout
        let calls = Locked(0)
        let transport = InMemoryTransport(routes: [
            .get("/chat") { _ in
                calls.withLock { $0 += 1 }
                return StubResponse(statusCode: 503, headers: ["Retry-After": "120"])
            }
        ])
        let configuration = Session.Configuration(
            totalTimeout: .seconds(10), transport: transport,
            interceptors: [RetryPolicy(maximumDelay: .seconds(300), timeBudget: nil)])
        // When the socket is used
        let error = await #expect(throws: FerryError.self) {
            try await Session(configuration: configuration).webSocket("ws://chat.test/chat").head
        }
        // Then it ends with the total timeout now, not after the wait (past the suite's time limit), with one upgrade
        #expect(error?.reason == .timedOut(.total))
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func thePingsOfTheClientAreRecorded() async throws {
        let server = echoServer()
        let socket = session([.webSocket("/chat", server)]).webSocket("ws://chat.test/chat")
        try await socket.sendPing(Data("hi".utf8))
        try await socket.send(.text("after ping"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("after ping"))
        #expect(server.receivedPings == [Data("hi".utf8)])
        await socket.close()
    }

    @Test func aPingIsAnsweredWithAPong() async throws {
        let server = echoServer()
        let socket = session([.webSocket("/chat", server)]).webSocket("ws://chat.test/chat")
        let roundTrip = try await socket.ping(Data("rtt".utf8))
        #expect(roundTrip >= .zero)
        #expect(server.receivedPings == [Data("rtt".utf8)])
        await socket.close()
        // After the close, a ping fails with the close code instead of waiting forever
        let error = await #expect(throws: FerryError.self) { try await socket.ping() }
        #expect(error?.reason == .webSocketClosed(.normalClosure))
    }

    @Test func eachUpgradeRunsTheScriptOnItsOwnConnection() async throws {
        let server = echoServer()
        let session = session([.webSocket("/chat", server)])
        let first = session.webSocket("ws://chat.test/chat")
        let second = session.webSocket("ws://chat.test/chat")
        try await first.send(.text("to first"))
        try await second.send(.text("to second"))
        var firstMessages = first.messages.makeAsyncIterator()
        var secondMessages = second.messages.makeAsyncIterator()
        #expect(try await secondMessages.next() == .text("to second"))
        #expect(try await firstMessages.next() == .text("to first"))
        #expect(server.connectionCount == 2)
        await first.close()
        await second.close(code: WebSocketCloseCode(rawValue: 4002))
        #expect(server.clientCloses.map(\.code?.rawValue) == [1000, 4002])
    }

    #if !WebSocket
    @Test func worksInABuildWithoutTheWebSocketTrait() async throws {
        // Given this build, where a session on its default transport cannot open a WebSocket
        let plain = Session().webSocket("ws://127.0.0.1:9/chat")
        let traitError = await #expect(throws: FerryError.self) { _ = try await plain.head }
        #expect(traitError?.localizedDescription.contains("WebSocket package trait") == true)
        // Then an in-memory endpoint still opens, echoes and closes
        let server = echoServer()
        let socket = session([.webSocket("/chat", server)]).webSocket("ws://chat.test/chat")
        try await socket.send(.text("no network needed"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("no network needed"))
        await socket.close()
        #expect(server.clientCloses == [WebSocketClose(code: .normalClosure)])
    }
    #endif
}
