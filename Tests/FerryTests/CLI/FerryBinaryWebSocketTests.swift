import FerryTestServer
import Foundation
import Testing

/// `ferry ws` run as a user runs it, against the test server's `/ws/…` endpoints. The exchanges need a `ferry`
/// built with the `WebSocket` trait; a default build checks that `ferry ws` fails at once and says how to build one.
// Serialized: one `ferry` process at a time, as in the other binary suites.
@Suite("ferry ws: the binary against a live server", .serialized, .timeLimit(.minutes(2)))
struct FerryBinaryWebSocketTests {
    let server: TestServer

    init() throws {
        server = try TestServer()
    }

    private func url(_ path: String, scheme: String = "ws") -> String {
        "\(scheme)://127.0.0.1:\(server.port)\(path)"
    }

    @Test("ferry ws --help prints its own help; --offline prints the upgrade request and connects to nothing")
    func helpAndOffline() async throws {
        defer { server.shutDownInBackground() }
        let help = try await FerryBinary.run(["ws", "--help"])
        #expect(help.status == 0)
        #expect(help.out.hasPrefix("usage: ferry ws URL"))
        let offline = try await FerryBinary.run([
            "ws", "--offline", ":\(server.port)/ws/echo", "--protocol", "ferry.v1", "X-Trace:7", "room==blue",
        ])
        #expect(offline.status == 0)
        #expect(offline.out.hasPrefix("GET /ws/echo?room=blue HTTP/1.1\nHost: localhost:\(server.port)\n"))
        #expect(offline.out.contains("X-Trace: 7\n"))
        #expect(offline.out.contains("Sec-WebSocket-Protocol: ferry.v1\n"))
        #expect(offline.out.contains("Upgrade: websocket\nSec-WebSocket-Key: "))
        #expect(offline.out.contains("Sec-WebSocket-Version: 13\n"))
        #expect(!offline.out.contains("Accept-Encoding"))
        #expect(server.connectionCount == 0)
    }

    @Test("a usage error in ferry ws exits 2 before connecting")
    func usageError() async throws {
        defer { server.shutDownInBackground() }
        let run = try await FerryBinary.run(["ws", url("/ws/echo"), "name=Ada"])
        #expect(run.status == 2)
        #expect(run.err.contains("the upgrade request takes headers"))
        #expect(server.connectionCount == 0)
    }

    #if !WebSocket
    @Test("without the WebSocket trait, ferry ws fails at once with the library's error and how to build ferry")
    func withoutTheTrait() async throws {
        defer { server.shutDownInBackground() }
        // Standard input stays open: the command must end on its own, not at the end of its input.
        let run = try await FerryBinary.run(["ws", url("/ws/echo")], stdin: Data("hello\n".utf8), stdinStaysOpen: true)
        #expect(run.status == 2)
        #expect(run.err.contains("WebSocket package trait"))
        #expect(run.err.contains("swift build -c release --traits WebSocket --product ferry"))
        #expect(run.out.isEmpty)
        #expect(server.connectionCount == 0)
    }
    #endif

    #if WebSocket
    @Test("lines in, the echoed messages out in order; the end of input closes with 1000")
    func echoesLines() async throws {
        defer { server.shutDownInBackground() }
        let run = try await FerryBinary.run(["ws", url("/ws/echo")], stdin: Data("one\ntwo, wörld\r\n\nlast".utf8))
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "one\ntwo, wörld\n\nlast\n")
        #expect(run.err.hasPrefix("HTTP/1.1 101 Switching Protocols\n"))
        #expect(run.err.contains("closed: 1000 (normal closure)"))
        #expect(await server.closeCodes(count: 1) == [1000])
    }

    #if AsyncHTTPClient
    @Test("--proxy sends the socket through the proxy's tunnel", .enabled(if: ProxyServers.available))
    func throughAProxy() async throws {
        defer { server.shutDownInBackground() }
        let proxy = try #require(ProxyServers.open)
        let run = try await FerryBinary.run(
            ["ws", "--proxy", proxy.absoluteString, url("/ws/echo")], stdin: Data("tunnelled\n".utf8))
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "tunnelled\n")
        // The same command through a proxy nobody runs fails before any upgrade reaches the server
        let before = server.requestCount
        let dead = try await FerryBinary.run(
            ["ws", "--proxy", "http://127.0.0.1:\(ProxyServers.deadPort)", url("/ws/echo")], stdin: Data("x\n".utf8))
        #expect(dead.status != 0)
        #expect(dead.out.isEmpty)
        #expect(server.requestCount == before)
    }
    #endif

    @Test("http:// and the :PORT shorthand stand for ws://")
    func httpURLsAndShorthand() async throws {
        defer { server.shutDownInBackground() }
        let http = try await FerryBinary.run(["ws", url("/ws/echo", scheme: "http")], stdin: Data("a\n".utf8))
        #expect(http.status == 0 && http.out == "a\n")
        let short = try await FerryBinary.run(["ws", ":\(server.port)/ws/echo"], stdin: Data("b\n".utf8))
        #expect(short.status == 0 && short.out == "b\n", "\(short.err)")
        #expect(await server.closeCodes(count: 2) == [1000, 1000])
    }

    @Test("a message is printed as it arrives, while standard input is still open")
    func conversation() async throws {
        defer { server.shutDownInBackground() }
        let ferry = try FerryConversation.start(["ws", url("/ws/echo")])
        ferry.type("first\n")
        let first = await ferry.waitForOutput("first\n")
        ferry.type("second\n")
        let second = await ferry.waitForOutput("first\nsecond\n")
        ferry.endInput()
        let run = try await ferry.finish()
        #expect(first && second)
        #expect(run.status == 0)
        #expect(run.out == "first\nsecond\n")
        #expect(server.receivedCloseCodes == [1000])
    }

    @Test("--binary sends lines as binary messages; binary messages are printed in base64, said once")
    func binary() async throws {
        defer { server.shutDownInBackground() }
        let run = try await FerryBinary.run(["ws", "--binary", url("/ws/echo")], stdin: Data("hi\n\u{1}\u{2}\n".utf8))
        #expect(run.status == 0)
        #expect(run.out == "aGk=\nAQI=\n")
        #expect(run.err.components(separatedBy: "printed in base64").count == 2)
    }

    @Test("the server's close ends the command: 1000 exits 0, another code exits 1; code and reason on stderr")
    func serverCloses() async throws {
        defer { server.shutDownInBackground() }
        let normal = try await FerryBinary.run(["ws", url("/ws/close")], stdinStaysOpen: true)
        #expect(normal.status == 0)
        #expect(normal.err.contains("closed by the server: 1000 (normal closure) \"bye\""))
        let policy = try await FerryBinary.run(["ws", url("/ws/close?code=4000")], stdinStaysOpen: true)
        #expect(policy.status == 1)
        #expect(policy.err.contains("ferry: the server closed the WebSocket: 4000 \"bye\""))
        #expect(policy.out.isEmpty)
        #expect(await server.closeCodes(count: 2) == [1000, 1000], "each close answered, with 1000")
    }

    @Test("a refused upgrade exits as an error status does, with the server's head; no upgrade anywhere exits 1")
    func refusedUpgrade() async throws {
        defer { server.shutDownInBackground() }
        let missing = try await FerryBinary.run(["ws", url("/status/404")], stdinStaysOpen: true)
        #expect(missing.status == 4)
        #expect(missing.err.hasPrefix("HTTP/1.1 404 Not Found\n"))
        #expect(missing.err.contains("404"))
        #expect(missing.err.contains("is the URL a WebSocket endpoint?"))
        let plain = try await FerryBinary.run(["ws", url("/get")], stdinStaysOpen: true)
        #expect(plain.status == 1)
        #expect(plain.err.contains("200"))
        #expect(server.receivedRequests.map(\.path) == ["/status/404", "/get"])
    }

    @Test("-v shows the upgrade request and the 101 head; --protocol offers, -v says which was chosen")
    func verboseAndProtocols() async throws {
        defer { server.shutDownInBackground() }
        let run = try await FerryBinary.run(
            ["ws", "-v", url("/ws/echo"), "--protocol", "chat.x", "--protocol", "ferry.v1", "X-Trace:7"],
            stdin: Data("hi\n".utf8))
        #expect(run.status == 0)
        #expect(run.out == "hi\n")
        #expect(run.err.hasPrefix("GET /ws/echo HTTP/1.1\nHost: 127.0.0.1:\(server.port)\n"))
        #expect(run.err.contains("Sec-WebSocket-Protocol: chat.x, ferry.v1\n"))
        #expect(run.err.contains("HTTP/1.1 101 Switching Protocols\n"))
        #expect(run.err.contains("Sec-WebSocket-Accept: "))
        #expect(run.err.contains("Sec-WebSocket-Protocol: ferry.v1\n"))
        #expect(run.err.contains("subprotocol: ferry.v1"))
        let received = try #require(server.receivedRequests.last)
        #expect(received.header("X-Trace") == "7")
        #expect(received.header("Sec-WebSocket-Protocol") == "chat.x, ferry.v1")
        #expect(received.header("User-Agent")?.hasPrefix("ferry/") == true)

        let wrong = try await FerryBinary.run(
            ["ws", url("/ws/wrong-protocol"), "--protocol", "ferry.v1"], stdinStaysOpen: true)
        #expect(wrong.status == 1, "a subprotocol not offered fails the handshake")
        #expect(wrong.out.isEmpty)
    }

    @Test("-a, --session and -q: credentials and cookies on the upgrade; quiet leaves stderr empty")
    func authSessionAndQuiet() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-ws-\(UUID().uuidString)")
        defer {
            server.shutDownInBackground()
            try? FileManager.default.removeItem(at: directory)
        }
        let session = directory.appendingPathComponent("s.json").path
        let run = try await FerryBinary.run(
            ["ws", "-q", "-a", "ada:secret", "--session", session, url("/ws/echo")], stdin: Data("x\n".utf8))
        #expect(run.status == 0)
        #expect(run.out == "x\n")
        #expect(run.err.isEmpty)
        #expect(server.receivedRequests.last?.header("Authorization") == "Basic YWRhOnNlY3JldA==")
        // The session kept the credentials: a second run sends them without -a.
        _ = try await FerryBinary.run(["ws", "--session", session, url("/ws/echo")], stdin: Data("y\n".utf8))
        #expect(server.receivedRequests.last?.header("Authorization") == "Basic YWRhOnNlY3JldA==")
    }

    @Test("a message past --max-message-size closes with 1009 and says which flag raises the limit")
    func oversize() async throws {
        defer { server.shutDownInBackground() }
        let run = try await FerryBinary.run(
            ["ws", "--max-message-size", "1000", url("/ws/oversize?size=4096")], stdinStaysOpen: true)
        #expect(run.status == 1)
        #expect(run.err.contains("larger than the limit"))
        #expect(run.err.contains("allow larger messages with --max-message-size (it is "))
        #expect(await server.closeCodes(count: 1) == [1009])
    }

    @Test("Ctrl-C closes with 1001 and exits 130")
    func interrupt() async throws {
        defer { server.shutDownInBackground() }
        let ferry = try FerryConversation.start(["ws", url("/ws/echo")])
        ferry.type("before\n")
        let open = await ferry.waitForOutput("before\n")
        if open { ferry.interrupt() }
        // Standard input stays open: only Ctrl-C ends the command.
        let run = try await ferry.finish(endingInput: false, terminating: !open)
        #expect(open)
        #expect(run.status == 130, "\(run.err)")
        #expect(run.err.contains("interrupted: closed with 1001 (going away)"))
        #expect(server.receivedCloseCodes == [1001])
    }
    #endif
}
