import Ferry
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import FerryCLI

@Suite("ferry ws: command line")
struct WebSocketCommandLineTests {
    @Test("ferry ws URL takes headers, query items and its own options; its first positional is the URL")
    func parsesTheWebSocketOptions() throws {
        let options = try CommandLineParser.parse([
            "ws", ":8080/ws/echo", "--protocol", "chat.v2", "--protocol=chat.v1", "--binary",
            "--max-message-size", "64k", "X-Trace:7", "room==blue", "-v",
        ])
        #expect(options.isWebSocket)
        #expect(options.url == ":8080/ws/echo")
        #expect(options.method == nil)
        #expect(options.webSocketProtocols == ["chat.v2", "chat.v1"])
        #expect(options.sendsBinary)
        #expect(options.maximumMessageSize == 65536)
        #expect(options.items == [.header(name: "X-Trace", value: "7"), .query(name: "room", value: "blue")])
        #expect(options.isVerbose)
        // A word in capitals is no method for ferry ws: it is the URL.
        #expect(try CommandLineParser.parse(["ws", "HOST"]).url == "HOST")
        #expect(try CommandLineParser.parse(["ws", ":1/x", "--max-message-size", "2M"]).maximumMessageSize == 2 << 20)
        #expect(try CommandLineParser.parse(["ws", ":1/x", "--max-message-size", "125"]).maximumMessageSize == 125)
        let help = try CommandLineParser.parse(["ws", "--help"])
        #expect(help.isWebSocket && help.showsHelp)
        #expect(!(try CommandLineParser.parse(["wss.example.com"]).isWebSocket), "ws alone is the subcommand")
    }

    @Test func theProxyAndTLSFlagsApplyToASocket() throws {
        let options = try CommandLineParser.parse([
            "ws", "wss://chat.test/", "--proxy", "socks5://127.0.0.1:1080", "--cacert", "ca.pem", "--no-verify",
        ])
        #expect(options.isWebSocket)
        #expect(options.proxy == "socks5://127.0.0.1:1080")
        #expect(options.caCertificate == "ca.pem")
        #expect(options.skipsVerification)
    }

    @Test(
        "what ferry ws refuses, in a sentence that names it",
        arguments: [
            (["ws"], "no URL given"),
            (["ws", ":1/x", "name=Ada"], "the upgrade request takes headers (Name:value) and query parameters"),
            (["ws", ":1/x", "--raw", "hi"], "the upgrade request takes headers"),
            (["ws", "-X", "POST", ":1/x"], "-X/--method does not apply"),
            (["ws", ":1/x", "-d"], "-d/--download does not apply to ferry ws"),
            (["ws", ":1/x", "--max-time", "3"], "--max-time does not apply to ferry ws"),
            (["ws", ":1/x", "--unix-socket", "/tmp/s"], "--unix-socket does not apply to ferry ws"),
            (["ws", ":1/x", "--curl"], "--curl does not apply to ferry ws"),
            (["ws", ":1/x", "--protocol", "a,b"], "--protocol takes one subprotocol name"),
            (["ws", ":1/x", "--protocol", ""], "--protocol takes one subprotocol name"),
            (["ws", ":1/x", "--max-message-size", "100"], "--max-message-size takes a size in bytes of at least 125"),
            (["ws", ":1/x", "--max-message-size", "lots"], "--max-message-size takes a size in bytes"),
            ([":1/x", "--protocol", "chat"], "--protocol is for WebSockets: ferry ws URL"),
            ([":1/x", "--binary"], "--binary is for WebSockets"),
            ([":1/x", "--max-message-size", "1M"], "--max-message-size is for WebSockets"),
        ])
    func refusals(arguments: [String], message: String) {
        #expect {
            try CommandLineParser.parse(arguments)
        } throws: { error in
            (error as? UsageError)?.description.contains(message) == true
        }
    }

    @Test("ws://, wss://, http://, https:// and the shorthand make the upgrade request's http(s) URL")
    func urls() throws {
        func plan(_ url: String) throws -> RequestPlan {
            try RequestPlan(options: CommandLineParser.parse(["ws", url]))
        }
        #expect(try plan("ws://127.0.0.1:9/ws/echo").url.absoluteString == "http://127.0.0.1:9/ws/echo")
        #expect(try plan("WSS://example.com/feed").url.absoluteString == "https://example.com/feed")
        #expect(try plan("https://example.com/feed").url.absoluteString == "https://example.com/feed")
        #expect(try plan(":8080/ws/echo").url.absoluteString == "http://localhost:8080/ws/echo")
        #expect(try plan("example.com/chat").url.absoluteString == "http://example.com/chat")
        #expect {
            try plan("ftp://example.com")
        } throws: { error in
            (error as? UsageError)?.description.contains("ferry ws speaks ws, wss, http and https, not ftp") == true
        }
        // Without ws, a WebSocket URL is pointed at the subcommand.
        #expect {
            try RequestPlan(options: CommandLineParser.parse(["ws://example.com/chat"]))
        } throws: { error in
            (error as? UsageError)?.description.contains("open it with ferry ws ws://example.com/chat") == true
        }
    }

    @Test("the upgrade request: User-Agent alone by default, the items, then what the engine adds")
    func upgradeHeaders() throws {
        let options = try CommandLineParser.parse([
            "ws", "example.com:8080/chat", "X-Trace:7", "room==blue", "-a", "ada:secret", "Connection:close",
        ])
        let plan = try RequestPlan(options: options)
        #expect(plan.method == .get)
        #expect(plan.url.query == "room=blue")
        #expect(!plan.headers.contains("Accept") && !plan.headers.contains("Accept-Encoding"))
        let cookie = Cookie(name: "id", value: "42", domain: "example.com")
        let shown = plan.webSocketHeadersAsSent(protocols: ["chat.v2", "chat.v1"], cookies: [cookie])
        #expect(
            shown.map(\.name) == [
                "Host", "User-Agent", "Authorization", "X-Trace", "Sec-WebSocket-Protocol", "Cookie", "Connection",
                "Upgrade", "Sec-WebSocket-Key", "Sec-WebSocket-Version",
            ])
        #expect(shown["Host"] == "example.com:8080")
        #expect(shown["Sec-WebSocket-Protocol"] == "chat.v2, chat.v1")
        #expect(shown["Cookie"] == "id=42")
        #expect(shown["Connection"] == "upgrade", "the engine's, not the item's")
        #expect(shown["Upgrade"] == "websocket")
        let https = try RequestPlan(options: CommandLineParser.parse(["ws", "wss://example.com:443/x"]))
        #expect(https.webSocketHeadersAsSent(protocols: [])["Host"] == "example.com", "no default port")
    }

    @Test("ferry ws is in --help, has a help of its own, and the completion scripts offer it")
    func helpAndCompletions() {
        #expect(Usage.synopsis.contains("ferry ws URL"))
        #expect(Usage.webSocketText.hasPrefix("usage: ferry ws URL"))
        for flag in ["--protocol", "--binary", "--max-message-size", "130"] {
            #expect(Usage.text.contains(flag))
            #expect(Usage.webSocketText.contains(flag))
        }
        #expect(Usage.webSocketText.contains("swift build -c release --traits WebSocket --product ferry"))
        #expect(WebSocketCommand.buildHint.contains("swift build -c release --traits WebSocket --product ferry"))
        #expect(CompletionScript.script(for: .bash).contains("compgen -W \"demo ws\""))
        #expect(CompletionScript.script(for: .zsh).contains("(demo ws GET"))
        #expect(CompletionScript.script(for: .fish).contains("-a ws -d"))
    }

    @Test("a close is described with its code's name and the reason")
    func closeDescriptions() {
        #expect(WebSocketCommand.describe(WebSocketClose(code: .normalClosure)) == "1000 (normal closure)")
        #expect(WebSocketCommand.describe(WebSocketClose(code: .init(rawValue: 4000), reason: "bye")) == "4000 \"bye\"")
        #expect(WebSocketCommand.describe(WebSocketClose(code: nil)) == "no close code")
        #expect(ExitCode.interrupted.rawValue == 130)
    }

    @Test("standard input's lines: \\n or \\r\\n ends one in text, \\n alone in binary; the last needs none")
    func lines() throws {
        func split(_ text: String, strippingCarriageReturn: Bool) throws -> [String] {
            let pipe = try SpawnedProcess.pipe()
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(pipe.write, $0.baseAddress, $0.count) }
            close(pipe.write)
            defer { close(pipe.read) }
            var reader = LineReader(descriptor: pipe.read, strippingCarriageReturn: strippingCarriageReturn)
            var lines: [String] = []
            while let line = reader.next() { lines.append(String(decoding: line, as: UTF8.self)) }
            return lines
        }
        #expect(try split("one\ntwo\r\n\nlast", strippingCarriageReturn: true) == ["one", "two", "", "last"])
        #expect(try split("one\r\ntwo\n", strippingCarriageReturn: false) == ["one\r", "two"])
        #expect(try split("", strippingCarriageReturn: true) == [])
    }
}
