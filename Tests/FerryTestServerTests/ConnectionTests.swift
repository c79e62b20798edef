import Foundation
import Testing

@testable import FerryTestServer

@Suite("Connections")
struct ConnectionTests {
    @Test("HTTP/1.1 keeps the connection alive: two requests, one connection")
    func keepAlive() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)

        client.send(request: "/get?n=1")
        let first = try client.readResponse()
        client.send(request: "/post", method: "POST", body: Data("x".utf8))
        let second = try client.readResponse()

        #expect(first.status == 200 && second.status == 200)
        #expect(first.header("Connection") == nil)
        #expect(server.requestCount == 2)
        #expect(server.connectionCount == 1)
    }

    @Test("Pipelined requests are answered in order on the same connection")
    func pipelining() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)

        client.send(
            TestServer.requestText("/status/201") + TestServer.requestText("/bytes/3")
                + TestServer.requestText("/status/202"))
        let statuses = try (0..<3).map { _ in try client.readResponse().status }

        #expect(statuses == [201, 200, 202])
        #expect(server.connectionCount == 1)
    }

    @Test("Connection: close is honoured: the response says so and the server closes")
    func connectionClose() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)

        client.send(request: "/get", headers: ["Connection: close"])
        let response = try client.readResponse()
        let (extra, ending) = client.readAll()

        #expect(response.header("Connection") == "close")
        #expect(extra.isEmpty)
        #expect(ending == .endOfStream)
    }

    @Test("HTTP/1.0 closes by default and stays open with keep-alive")
    func http10() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let closing = try RawClient(port: server.port)
        let persistent = try RawClient(port: server.port)

        closing.send("GET /get HTTP/1.0\r\n\r\n")
        _ = try closing.readResponse()
        let (_, ending) = closing.readAll()
        persistent.send("GET /get HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        _ = try persistent.readResponse()
        persistent.send("GET /status/203 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let second = try persistent.readResponse()

        #expect(ending == .endOfStream)
        #expect(second.status == 203)
        #expect(server.connectionCount == 2)
    }

    @Test("An HTTP/1.0 client gets a chunked endpoint's body delimited by the close")
    func http10Chunked() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)

        client.send("GET /stream-bytes/100?chunk=10 HTTP/1.0\r\n\r\n")
        let (bytes, ending) = client.readAll()
        let response = try #require(try RawResponse.parse(bytes, isHead: false, complete: true)?.0)

        #expect(response.header("Transfer-Encoding") == nil)
        #expect(response.body == TestServer.patternBytes(count: 100))
        #expect(ending == .endOfStream)
    }

    @Test("Listening on ::1 works too", .enabled(if: IPv6.isAvailable))
    func ipv6() throws {
        let server = try TestServer(host: "::1")
        defer { server.shutdown() }
        let client = try RawClient(port: server.port, ipv6: true)

        client.send(request: "/get")
        let response = try client.readResponse()

        #expect(server.baseURL.absoluteString == "http://[::1]:\(server.port)")
        #expect(try response.json()["url"] as? String == "http://[::1]:\(server.port)/get")
    }
}

/// Whether this machine can bind `::1` (containers sometimes disable IPv6).
enum IPv6 {
    static let isAvailable: Bool = {
        guard let server = try? TestServer(host: "::1") else { return false }
        server.shutdown()
        return true
    }()
}
