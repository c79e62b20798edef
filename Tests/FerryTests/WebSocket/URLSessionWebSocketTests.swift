import FerryTestServer
import Foundation
import Testing

@testable import Ferry

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLSessionWebSocketTask` path of ``URLSessionTransport`` (Apple platforms without the `WebSocket` trait),
/// driven directly against the test server. On this Linux machine FoundationNetworking's libcurl has no WebSockets,
/// so these tests check what must hold there too: the settings URLSession cannot honour fail before anything is
/// sent, and a task that fails comes back as a typed error, at once, with nothing left routed.
@Suite("URLSession's WebSocket task, driven directly")
struct URLSessionWebSocketTests {
    private func upgrade(_ server: TestServer) -> Request {
        var request = Request(url: URL(string: "http://127.0.0.1:\(server.port)/ws/echo")!)
        request.headers.add(name: "Sec-WebSocket-Protocol", value: "chat")
        request.idleTimeout = Duration.seconds(10).scaled
        return request
    }

    @Test func compressionFailsBeforeAnythingIsSent() async throws {
        let server = try TestServer()
        defer { server.shutDownInBackground() }
        let transport = URLSessionTransport()
        let error = await #expect(throws: FerryError.self) {
            _ = try await transport.openURLSessionWebSocket(
                upgrade(server), options: WebSocketOptions(offersCompression: true), inbox: WebSocketInbox())
        }
        guard case .unsupportedSetting(let setting, let remedy) = error?.reason else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(setting.contains("offersCompression"))
        #expect(remedy.contains("WebSocket trait"))
        #expect(server.requestCount == 0)
        await transport.shutdown()
    }

    @Test func theUpgradeRequestCarriesTheRequestsFieldsButNotThoseURLSessionWrites() {
        var request = Request(url: URL(string: "https://example.test/chat?room=1")!)
        request.headers.add(name: "Authorization", value: "Bearer t")
        request.headers.add(name: "Sec-WebSocket-Protocol", value: "chat, superchat")
        request.headers.add(name: "Connection", value: "keep-alive")
        request.headers.add(name: "Sec-WebSocket-Key", value: "not-yours")
        let urlRequest = URLSessionTransport.upgradeRequest(
            for: request, url: WebSocketHandshake.webSocketURL(request.url))
        #expect(urlRequest.url?.absoluteString == "wss://example.test/chat?room=1")
        #expect(urlRequest.httpMethod == "GET")
        #expect(urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(urlRequest.value(forHTTPHeaderField: "Sec-WebSocket-Protocol") == "chat, superchat")
        #expect(urlRequest.value(forHTTPHeaderField: "Connection") == nil)
        #expect(urlRequest.value(forHTTPHeaderField: "Sec-WebSocket-Key") == nil)
    }

    @Test func theHandshakeGetsTheShorterOfTheIdleAndWhatIsLeftOfTheTotalTimeout() {
        var request = Request(url: URL(string: "http://127.0.0.1/")!)
        request.idleTimeout = .seconds(10)
        request.totalTimeout = .seconds(3)
        #expect(
            WebSocketHandshake.timeout(idle: request.idleTimeout, total: request.totalTimeout) == (.seconds(3), .total))
        request.totalTimeout = .seconds(30)
        #expect(
            WebSocketHandshake.timeout(idle: request.idleTimeout, total: request.totalTimeout) == (.seconds(10), .idle))
        request.totalTimeout = nil
        request.idleTimeout = nil
        #expect(WebSocketHandshake.timeout(idle: request.idleTimeout, total: request.totalTimeout) == (nil, .idle))
    }

    #if !canImport(Darwin)
    @Test func withoutLibcurlWebSocketsTheTaskFailsTypedAndAtOnce() async throws {
        // Given FoundationNetworking on a libcurl without WebSockets (Debian 12's 7.88.1)
        let server = try TestServer()
        defer { server.shutDownInBackground() }
        let transport = URLSessionTransport()
        let inbox = WebSocketInbox()
        // When the upgrade is tried on URLSession's WebSocket task
        let error = await #expect(throws: FerryError.self) {
            _ = try await transport.openURLSessionWebSocket(upgrade(server), options: WebSocketOptions(), inbox: inbox)
        }
        // Then it is a typed error, not a hang, and libcurl never sent the upgrade
        #expect(error?.reason == .invalidURL("rejected by the transport"), "got \(String(describing: error))")
        #expect(server.requestCount == 0)
        // And the transport still runs requests (the failed task left no route and no state behind)
        let session = Session(configuration: .init(baseURL: server.baseURL, transport: transport))
        #expect(await session.get("get").response.statusCode == 200)
        await session.shutdown()
    }
    #endif
}
