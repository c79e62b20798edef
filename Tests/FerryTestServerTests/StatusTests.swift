import Foundation
import Testing

@testable import FerryTestServer

@Suite("Status endpoints")
struct StatusTests {
    @Test("/status/{code} answers that code with {\"status\": code}", arguments: [200, 201, 400, 404, 418, 500, 503])
    func statusWithBody(code: Int) throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/status/\(code)")

        #expect(response.status == code)
        #expect(try response.json()["status"] as? Int == code)
        #expect(response.header("Content-Length") == "\(response.body.count)")
    }

    @Test("204 and 304 carry neither body nor Content-Length, and the connection stays usable", arguments: [204, 304])
    func bodilessStatus(code: Int) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)

        client.send(request: "/status/\(code)")
        let first = try client.readResponse()
        client.send(request: "/status/201")
        let second = try client.readResponse()

        #expect(first.status == code)
        #expect(first.header("Content-Length") == nil)
        #expect(second.status == 201)
        #expect(server.connectionCount == 1)
    }

    @Test("205 has an empty body with Content-Length: 0")
    func resetContent() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/status/205")

        #expect(response.status == 205)
        #expect(response.header("Content-Length") == "0")
        #expect(response.body.isEmpty)
    }

    @Test("HEAD sends GET's headers, Content-Length included, and no body")
    func headHasNoBody() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)
        let get = try server.raw("/status/200")

        client.send(request: "/status/200", method: "HEAD")
        let head = try client.readResponse(head: true)
        client.send(request: "/status/202")
        let next = try client.readResponse()

        #expect(head.status == 200)
        #expect(head.header("Content-Length") == get.header("Content-Length"))
        #expect(head.header("Content-Type") == "application/json")
        #expect(next.status == 202, "a stray body byte after the HEAD response would corrupt this one")
    }

    @Test("/empty/{code} sends Content-Length: 0 even for 204")
    func empty() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/empty/204")

        #expect(response.status == 204)
        #expect(response.header("Content-Length") == "0")
    }

    @Test("A 1xx sent as a final answer is followed by a close, so no client waits forever")
    func informationalClosed() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)

        client.send(request: "/status/102")
        let (bytes, ending) = client.readAll()

        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 102 Processing\r\n"))
        #expect(ending == .endOfStream)
    }

    @Test("401 carries a challenge; Retry-After comes from the query; out-of-range codes are a 400")
    func extras() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        #expect(try server.raw("/status/401").header("WWW-Authenticate") == #"Basic realm="Ferry""#)
        #expect(try server.raw("/status/503?retry-after=2").header("Retry-After") == "2")
        #expect(try server.raw("/status/600").status == 400)
        #expect(try server.raw("/status/abc").status == 400)
    }
}
