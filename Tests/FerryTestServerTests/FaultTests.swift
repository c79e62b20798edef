import Foundation
import Testing

@testable import FerryTestServer

/// Every fault, as a client sees it on the socket.
@Suite("Faults")
struct FaultTests {
    /// Sends `GET target` on a new connection and reads until the server ends it (or `timeout` of silence).
    private func exchange(
        _ server: TestServer, _ target: String, timeout: Duration = .seconds(5)
    ) throws
        -> (text: String, bytes: Data, ending: RawClient.Ending)
    {
        let client = try RawClient(port: server.port)
        client.send(request: target)
        let (bytes, ending) = client.readAll(timeout: timeout)
        return (String(decoding: bytes, as: UTF8.self), bytes, ending)
    }

    /// The body bytes after the head in `bytes`.
    private func body(_ bytes: Data) throws -> Data {
        let end = try #require(bytes.firstRange(of: Data("\r\n\r\n".utf8)))
        return Data(bytes[end.upperBound...])
    }

    @Test("/fault/reset: no bytes, then ECONNRESET")
    func reset() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/fault/reset")

        #expect(result.bytes.isEmpty)
        #expect(result.ending == .reset)
    }

    @Test("/fault/reset-mid-body: Content-Length 100000, 1000 bytes, then ECONNRESET")
    func resetMidBody() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/fault/reset-mid-body")

        #expect(result.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(result.text.contains("Content-Length: 100000\r\n"))
        #expect(try body(result.bytes).count == 1000)
        #expect(result.ending == .reset)
    }

    @Test("/fault/truncate: Content-Length 1000, 500 bytes, then a clean end of stream")
    func truncate() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/fault/truncate")

        #expect(result.text.contains("Content-Length: 1000\r\n"))
        #expect(try body(result.bytes) == TestServer.patternBytes(count: 500))
        #expect(result.ending == .endOfStream)
    }

    @Test("/fault/bad-chunk: a chunked body with the chunk-size line zz, then a close")
    func badChunk() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/fault/bad-chunk")

        #expect(result.text.contains("Transfer-Encoding: chunked\r\n"))
        #expect(result.text.hasSuffix("\r\n\r\n5\r\nhello\r\nzz\r\n"))
        #expect(result.ending == .endOfStream)
    }

    @Test("/fault/garbage: bytes that are not HTTP, then a close")
    func garbage() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/fault/garbage")

        #expect(result.text == "HELLO THIS IS NOT HTTP\r\n\r\n")
        #expect(result.ending == .endOfStream)
    }

    @Test("/fault/close: no bytes, then a clean end of stream")
    func close() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/fault/close")

        #expect(result.bytes.isEmpty)
        #expect(result.ending == .endOfStream)
    }

    @Test("/fault/huge-header: a header line of 1 MiB")
    func hugeHeader() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/fault/huge-header")

        let firstLineEnd = try #require(result.bytes.firstRange(of: Data("\r\n".utf8)))
        let secondLineEnd = try #require(result.bytes[firstLineEnd.upperBound...].firstRange(of: Data("\r\n".utf8)))
        #expect(secondLineEnd.lowerBound - firstLineEnd.upperBound == "X-Huge: ".count + (1 << 20))
        #expect(result.ending == .endOfStream)
    }

    @Test("/fault/stall-headers: silence until shutdown, then an end of stream")
    func stallHeaders() throws {
        let server = try TestServer()
        let client = try RawClient(port: server.port)
        client.send(request: "/fault/stall-headers")

        let (silence, waited) = client.readAll(timeout: .milliseconds(300))
        server.shutdown()
        let (after, ending) = client.readAll()

        #expect(silence.isEmpty)
        #expect(waited == .timedOut)
        #expect(after.isEmpty)
        #expect(ending == .endOfStream)
    }

    @Test("/fault/stall-body: a head promising 1000 bytes, 10 bytes, silence until shutdown")
    func stallBody() throws {
        let server = try TestServer()
        let client = try RawClient(port: server.port)
        client.send(request: "/fault/stall-body")

        let (received, waited) = client.readAll(timeout: .milliseconds(300))
        server.shutdown()
        let (_, ending) = client.readAll()

        #expect(String(decoding: received, as: UTF8.self).contains("Content-Length: 1000\r\n"))
        #expect(try body(received).count == 10)
        #expect(waited == .timedOut)
        #expect(ending == .endOfStream)
    }

    @Test("A custom fault sends its bytes, then ends as scripted")
    func customFault() throws {
        let server = try TestServer(routes: [
            "/half": { _ in .fault(.init(sending: Data("HTTP/1.1 200 OK\r\nContent-".utf8), then: .reset)) }
        ])
        defer { server.shutdown() }

        let result = try exchange(server, "/half")

        #expect(result.text == "HTTP/1.1 200 OK\r\nContent-")
        #expect(result.ending == .reset)
    }

    @Test("Faults never take the server down: normal requests still work afterwards")
    func serverSurvives() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        for fault in ["reset", "truncate", "garbage", "close", "bad-chunk", "reset-mid-body"] {
            _ = try exchange(server, "/fault/\(fault)")
        }

        #expect(try server.raw("/get").status == 200)
        #expect(server.requestCount == 7)
    }
}
