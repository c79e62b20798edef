import Foundation
import Testing

@testable import FerryTestServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Uploads")
struct UploadTests {
    @Test("The checksum is FNV-1a 64 in hexadecimal")
    func checksumVectors() {
        #expect(TestServer.checksum(of: Data()) == "cbf29ce484222325")
        #expect(TestServer.checksum(of: Data("a".utf8)) == "af63dc4c8601ec8c")
        #expect(TestServer.checksum(of: Data("foobar".utf8)) == "85944171f73967e8")
    }

    @Test("A chunked request body (extensions and trailers included) is counted and checksummed")
    func chunkedUpload() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let parts = [Data(repeating: 0x41, count: 5000), TestServer.patternBytes(count: 70_000), Data("end".utf8)]
        var request = Data(
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                .utf8
        )
        for (index, part) in parts.enumerated() {
            request.append(Data("\(String(part.count, radix: 16))\(index == 1 ? ";ext=1" : "")\r\n".utf8))
            request.append(part)
            request.append(Data("\r\n".utf8))
        }
        request.append(Data("0\r\nX-Trailer: yes\r\n\r\n".utf8))
        let client = try RawClient(port: server.port)

        client.send(request)
        let json = try client.readResponse().json()

        let whole = parts.reduce(Data(), +)
        #expect(json["bytes"] as? Int == whole.count)
        #expect(json["checksum"] as? String == TestServer.checksum(of: whole))
        #expect(json["chunked"] as? Bool == true)
        #expect(json["contentType"] as? String == "application/octet-stream")
        #expect(server.receivedRequests.last?.body.isEmpty == true, "uploads are counted, not kept")
    }

    @Test("A Content-Length upload through URLSession reports the same checksum")
    func urlSessionUpload() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let payload = TestServer.patternBytes(count: 300_000, offset: 7)
        var request = URLRequest(url: server.url("/upload"))
        request.httpMethod = "PUT"
        request.httpBody = payload

        let (body, response) = try await URLSessionClient.fetch(request)

        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(response.statusCode == 200)
        #expect(json["bytes"] as? Int == payload.count)
        #expect(json["checksum"] as? String == TestServer.checksum(of: payload))
        #expect(json["chunked"] as? Bool == false)
    }

    @Test("Expect: 100-continue gets an interim 100 before the body is sent")
    func expectContinue() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)

        client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        let interim = try client.readResponse()
        client.send("hello")
        let final = try client.readResponse()

        #expect(interim.status == 100)
        #expect(final.status == 200)
        #expect(try final.json()["checksum"] as? String == TestServer.checksum(of: Data("hello".utf8)))
    }

    @Test("/upload only takes POST and PUT")
    func uploadMethods() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/upload")

        #expect(response.status == 405)
        #expect(response.header("Allow") == "POST, PUT")
    }
}

@Suite("Malformed requests")
struct MalformedRequestTests {
    @Test(
        "Malformed requests get an error status and a close",
        arguments: [
            ("GARBAGE\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
            ("GET / HTTP/1.1\r\nContent-Length: abc\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
            ("POST /post HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ])
    func malformed(request: String, status: Int) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)

        client.send(request)
        let response = try client.readResponse()
        let (_, ending) = client.readAll()

        #expect(response.status == status)
        #expect(response.header("Connection") == "close")
        #expect(ending == .endOfStream)
        #expect(server.requestCount == 0)
    }

    @Test("A head over 64 KiB gets 431")
    func headTooLarge() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)

        client.send("GET /get HTTP/1.1\r\nX-Big: \(String(repeating: "a", count: 70_000))\r\n\r\n")
        let response = try client.readResponse()

        #expect(response.status == 431)
    }
}
