#if WebSocket
import Ferry
import Foundation
import Testing

/// The `websockets` library's server (`scripts/websocket-peer.py`, started by `scripts/servers.sh`): a WebSocket
/// implementation independent of the one Ferry runs on, with its own framing, fragmentation, ping and close
/// handling, and its own permessage-deflate (which answers with 12-bit windows).
enum WebSocketPeer {
    static let url = InteropServers.environment["FERRY_WEBSOCKETS_URL"]

    static func session(_ transport: TransportKind) -> Session {
        Session(
            configuration: .init(
                headers: ["X-Ferry-Interop": "yes"], idleTimeout: Duration.seconds(20).scaled,
                transport: transport.makeTransport()))
    }

    static func socket(
        _ path: String, on transport: TransportKind, protocols: [String] = [],
        options: WebSocketOptions = WebSocketOptions()
    ) -> WebSocketTask {
        session(transport).webSocket("\(url ?? "")\(path)", protocols: protocols, options: options)
    }
}

@Suite("Interop: the websockets library's server", .enabled(if: WebSocketPeer.url != nil))
struct WebSocketInteropTests {
    @Test(arguments: TransportKind.allCases)
    func messagesOfEverySizeComeBackAsSent(transport: TransportKind) async throws {
        let socket = WebSocketPeer.socket("/echo", on: transport)
        let sent: [WebSocketMessage] = [
            .text(""), .text("héllo, wörld ✓"), .binary(Data()), .binary(Data((0..<125).map { UInt8($0) })),
            .binary(Data(count: 65_536)), .text(String(repeating: "x", count: 200_000)),
        ]
        var messages = socket.messages.makeAsyncIterator()
        for message in sent {
            try await socket.send(message)
            #expect(try await messages.next() == message)
        }
        await socket.close()
        #expect(await socket.closeFrame?.code == .normalClosure)
    }

    @Test(arguments: TransportKind.allCases)
    func compressionIsNegotiatedAndWorksBothWays(transport: TransportKind) async throws {
        let socket = WebSocketPeer.socket("/echo", on: transport, options: WebSocketOptions(offersCompression: true))
        let extensions = try await socket.head.headers["Sec-WebSocket-Extensions"] ?? ""
        #expect(extensions.contains("permessage-deflate"), "\(extensions)")
        // The server inflates what Ferry deflated, and Ferry inflates its answer (12-bit windows both ways)
        let text = String(repeating: "Ferry compresses this line well. ", count: 4_000)
        var messages = socket.messages.makeAsyncIterator()
        for message in [WebSocketMessage.text(text), .binary(Data(text.utf8)), .text("short")] {
            try await socket.send(message)
            #expect(try await messages.next() == message)
        }
        await socket.close()
    }

    @Test(arguments: TransportKind.allCases)
    func aFragmentedMessageIsReassembled(transport: TransportKind) async throws {
        let socket = WebSocketPeer.socket("/fragmented", on: transport)
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("Hello, wörld"))
        await socket.close()
    }

    @Test(arguments: TransportKind.allCases)
    func theServersCloseCodeAndReasonAreReported(transport: TransportKind) async throws {
        let socket = WebSocketPeer.socket("/close?code=4001&reason=bye", on: transport)
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == nil)
        let close = await socket.closeFrame
        #expect(close?.code == WebSocketCloseCode(rawValue: 4001))
        #expect(close?.reason == "bye")
    }

    @Test(arguments: TransportKind.allCases)
    func pingsAreAnsweredBothWays(transport: TransportKind) async throws {
        // The server's ping is answered by the engine
        let socket = WebSocketPeer.socket("/ping", on: transport)
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("pong received"))
        // and the client's ping() returns with the server's pong
        let roundTrip = try await socket.ping(Data("ferry".utf8))
        #expect(roundTrip > .zero)
        await socket.close()
    }

    @Test(arguments: TransportKind.allCases)
    func theSubprotocolIsNegotiated(transport: TransportKind) async throws {
        let chosen = WebSocketPeer.socket("/echo", on: transport, protocols: ["chat.v3", "chat.v1"])
        #expect(try await chosen.subprotocol == "chat.v1")
        await chosen.close()
        let none = WebSocketPeer.socket("/echo", on: transport, protocols: ["chat.v3"])
        #expect(try await none.subprotocol == nil)
        await none.close()
    }

    @Test(arguments: TransportKind.allCases)
    func theUpgradeCarriesTheSessionsHeaders(transport: TransportKind) async throws {
        let socket = WebSocketPeer.socket("/headers", on: transport)
        var messages = socket.messages.makeAsyncIterator()
        guard case .text(let json) = try await messages.next() else {
            Issue.record("expected the headers as text")
            return
        }
        let headers = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(headers["X-Ferry-Interop"] == "yes")
        #expect(headers["Upgrade"]?.lowercased() == "websocket")
        #expect(headers["Sec-WebSocket-Version"] == "13")
        await socket.close()
    }

    @Test(arguments: TransportKind.allCases)
    func aMessageOverTheLimitClosesWith1009(transport: TransportKind) async throws {
        let socket = WebSocketPeer.socket(
            "/big?size=200000", on: transport, options: WebSocketOptions(maximumMessageSize: 100_000))
        let error = await #expect(throws: FerryError.self) {
            for try await _ in socket.messages {}
        }
        #expect(error?.reason == .webSocketClosed(.messageTooBig))
        // A message within the limit of another socket arrives whole
        let roomy = WebSocketPeer.socket("/big?size=200000", on: transport)
        var messages = roomy.messages.makeAsyncIterator()
        #expect(try await messages.next() == .binary(Data((0..<200_000).map { UInt8($0 % 251) })))
        await roomy.close()
    }
}
#endif
