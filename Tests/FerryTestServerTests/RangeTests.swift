import Foundation
import Testing

@testable import FerryTestServer

@Suite("Range requests")
struct RangeTests {
    @Test("Without Range, /range/{n} sends everything with its validators")
    func full() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/range/100")

        #expect(response.status == 200)
        #expect(response.body == TestServer.patternBytes(count: 100))
        #expect(response.header("Accept-Ranges") == "bytes")
        #expect(response.header("ETag") == "\"range-100\"")
        #expect(response.header("Last-Modified") != nil)
    }

    @Test(
        "A satisfiable range gets 206 with Content-Range and exactly those bytes",
        arguments: [
            ("bytes=10-19", 10..<20), ("bytes=90-", 90..<100), ("bytes=-5", 95..<100), ("bytes=95-200", 95..<100),
        ])
    func partial(range: String, expected: Range<Int>) throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/range/100", headers: ["Range: \(range)"])

        #expect(response.status == 206)
        #expect(response.header("Content-Range") == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/100")
        #expect(response.body == TestServer.patternBytes(count: expected.count, offset: expected.lowerBound))
    }

    @Test("A range past the end gets 416 with Content-Range: bytes */n")
    func unsatisfiable() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/range/100", headers: ["Range: bytes=100-"])

        #expect(response.status == 416)
        #expect(response.header("Content-Range") == "bytes */100")
    }

    @Test("If-Range decides: a matching ETag gets 206, another validator gets the full 200")
    func ifRange() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let matching = try server.raw("/range/100", headers: ["Range: bytes=50-", "If-Range: \"range-100\""])
        let stale = try server.raw("/range/100", headers: ["Range: bytes=50-", "If-Range: \"other\""])

        #expect(matching.status == 206)
        #expect(stale.status == 200)
        #expect(stale.body.count == 100)
    }

    @Test("?ignore-range=1 always answers 200 with the whole body")
    func ignoreRange() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/range/100?ignore-range=1", headers: ["Range: bytes=10-19"])

        #expect(response.status == 200)
        #expect(response.body.count == 100)
    }

    @Test("?reset-at=K resets after K bytes of the full body; a Range request then resumes the same URL")
    func resetAndResume() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)

        client.send(request: "/range/5000?reset-at=1200")
        let (bytes, ending) = client.readAll()
        let head = try #require(bytes.firstRange(of: Data("\r\n\r\n".utf8)))
        let received = bytes[head.upperBound...]
        let rest = try server.raw("/range/5000?reset-at=1200", headers: ["Range: bytes=\(received.count)-"])

        #expect(ending == .reset)
        #expect(received.count == 1200)
        #expect(rest.status == 206)
        #expect(Data(received) + rest.body == TestServer.patternBytes(count: 5000))
    }
}
