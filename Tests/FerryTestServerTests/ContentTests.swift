import Foundation
import Testing

@testable import FerryTestServer

@Suite("Content endpoints")
struct ContentTests {
    @Test("/bytes/{n} sends the pattern with Content-Length, via URLSession")
    func bytes() async throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let (body, response) = try await URLSessionClient.get(server.url("/bytes/100000"))

        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
        #expect(body == TestServer.patternBytes(count: 100_000))
        #expect(body[251] == 0 && body[250] == 250)
    }

    @Test("/stream-bytes/{n}?chunk=K sends the pattern in K-byte chunks")
    func streamBytes() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/stream-bytes/10000?chunk=3000")

        #expect(response.header("Transfer-Encoding") == "chunked")
        #expect(response.header("Content-Length") == nil)
        #expect(response.chunks.map(\.count) == [3000, 3000, 3000, 1000])
        #expect(response.body == TestServer.patternBytes(count: 10_000))
    }

    @Test("/json holds every JSON kind and an Int64 a Double cannot represent")
    func sampleJSON() throws {
        struct Sample: Decodable {
            var string: String
            var int: Int
            var double: Double
            var bool: Bool
            var bigInt: Int64
            var unicode: String
            var escaped: String
            var nested: Nested
            struct Nested: Decodable {
                var values: [Int]
            }
        }
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/json")
        let sample = try JSONDecoder().decode(Sample.self, from: response.body)

        #expect(response.text == TestServer.sampleJSON)
        #expect(sample.bigInt == 9_007_199_254_740_993)
        #expect(Int64(Double(sample.bigInt)) != sample.bigInt)
        #expect(sample.string == "Ferry" && sample.int == 42 && sample.double == 3.25 && sample.bool)
        #expect(sample.unicode == "café ☕")
        #expect(sample.escaped == "line\nbreak \"quoted\" \\ /")
        #expect(sample.nested.values == [1, 2, 3])
    }

    @Test("/json/user, /json/space and /json/invalid send the documented bodies")
    func jsonVariants() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let user = try server.raw("/json/user").json()
        let space = try server.raw("/json/space")
        let invalid = try server.raw("/json/invalid")

        #expect(user["id"] as? Int == 42)
        #expect(user["name"] as? String == "Ada Lovelace")
        #expect(user["email"] as? String == "ada@example.com")
        #expect(space.body == Data(" ".utf8))
        #expect(space.header("Content-Type") == "application/json")
        #expect(invalid.text == #"{"broken":"#)
        #expect((try? JSONSerialization.jsonObject(with: invalid.body)) == nil)
    }

    @Test(
        "/text encodes in the requested charset",
        arguments: [
            ("utf-8", "Grüße", [0x47, 0x72, 0xC3, 0xBC, 0xC3, 0x9F, 0x65]),
            ("iso-8859-1", "Grüße", [0x47, 0x72, 0xFC, 0xDF, 0x65]),
            ("windows-1252", "€–", [0x80, 0x96]),
            ("us-ascii", "Hi", [0x48, 0x69]),
            ("utf-16", "é", [0xFE, 0xFF, 0x00, 0xE9]),
        ] as [(String, String, [UInt8])])
    func text(charset: String, text: String, expected: [UInt8]) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let encoded = try #require(text.addingPercentEncoding(withAllowedCharacters: .alphanumerics))

        let response = try server.raw("/text?charset=\(charset)&text=\(encoded)")

        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/plain; charset=\(charset)")
        #expect([UInt8](response.body) == expected)
    }

    @Test("/text refuses text the charset cannot hold and unknown charsets")
    func textErrors() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        #expect(try server.raw("/text?charset=us-ascii&text=%C3%A9").status == 400)
        #expect(try server.raw("/text?charset=koi8-r").status == 400)
    }

    @Test("/bytes-raw sends exactly the given bytes, invalid UTF-8 included, with the given type")
    func bytesRaw() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/bytes-raw?hex=c328ff&type=text/plain;%20charset=utf-8")

        #expect([UInt8](response.body) == [0xC3, 0x28, 0xFF])
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(try server.raw("/bytes-raw?hex=abc").status == 400)
    }

    @Test("/html is text/html")
    func html() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/html")

        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(response.text.hasPrefix("<!DOCTYPE html>"))
    }

    @Test("/gzip is a valid gzip member (CRC-32 and ISIZE checked) of a JSON document")
    func gzip() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/gzip", headers: ["Accept-Encoding: gzip"])
        let decoded = try StoredInflater.gunzip(response.body)
        let json = try #require(try JSONSerialization.jsonObject(with: decoded) as? [String: Any])

        #expect(response.header("Content-Encoding") == "gzip")
        #expect(json["gzipped"] as? Bool == true)
        #expect((json["headers"] as? [String: String])?["Accept-Encoding"] == "gzip")
    }

    @Test("/gzip?size= and /deflate?size= span several stored blocks and decode to the pattern")
    func multiBlock() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let gzip = try server.raw("/gzip?size=200000")
        let deflate = try server.raw("/deflate?size=70000")

        #expect(try StoredInflater.gunzip(gzip.body) == TestServer.patternBytes(count: 200_000))
        #expect(deflate.header("Content-Encoding") == "deflate")
        #expect(try StoredInflater.unzlib(deflate.body) == TestServer.patternBytes(count: 70_000))
    }

    @Test("/deflate is a valid zlib stream (Adler-32 checked) of a JSON document")
    func deflate() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/deflate")
        let decoded = try StoredInflater.unzlib(response.body)

        #expect(try JSONSerialization.jsonObject(with: decoded) as? [String: Any] != nil)
        #expect(String(decoding: decoded, as: UTF8.self).contains(#""deflated":true"#))
    }
}
