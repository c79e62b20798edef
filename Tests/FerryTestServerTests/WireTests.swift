import Foundation
import Testing

@testable import FerryTestServer

/// The `/wire/…` responses and `/echo-body`, as a client sees them on the socket.
@Suite("Unusual but legal responses")
struct WireTests {
    private func exchange(_ server: TestServer, _ target: String) throws -> (text: String, ending: RawClient.Ending) {
        let client = try RawClient(port: server.port)
        client.send(request: target)
        let (bytes, ending) = client.readAll(timeout: .seconds(5))
        return (String(decoding: bytes, as: UTF8.self), ending)
    }

    @Test func theStatusLineWithoutAReasonPhraseEndsAfterTheCode() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/wire/no-reason")

        #expect(result.text.hasPrefix("HTTP/1.1 200\r\n"))
        #expect(result.text.hasSuffix("\r\n\r\nok"))
        #expect(result.ending == .endOfStream)
    }

    @Test func aBodyWithoutFramingEndsWithTheConnection() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/wire/until-close")

        #expect(!result.text.lowercased().contains("content-length"))
        #expect(!result.text.lowercased().contains("transfer-encoding"))
        #expect(result.text.hasSuffix("\r\n\r\n1234"))
        #expect(result.ending == .endOfStream)
    }

    @Test func earlyHintsComeBeforeTheFinalHead() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/wire/early-hints")

        let heads = result.text.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.1 ") }
        #expect(heads == ["HTTP/1.1 103 Early Hints", "HTTP/1.1 200 OK"])
        #expect(result.text.hasSuffix("\r\n\r\nok"))
    }

    @Test func theLowercaseVersionFaultSendsHttpInMixedCase() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/fault/lowercase-version")

        #expect(result.text.hasPrefix("Http/1.1 200 OK\r\n"))
        #expect(result.ending == .endOfStream)
    }

    @Test func theTruncatedChunkedFaultClosesWithoutTheLastChunk() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/fault/truncate-chunked")

        #expect(result.text.contains("Transfer-Encoding: chunked\r\n"))
        #expect(result.text.hasSuffix("\r\n\r\n5\r\nhello\r\n"))
        #expect(result.ending == .endOfStream)
    }

    @Test func anEmptyChunkedBodyIsOnlyTheLastChunkAndTheConnectionStaysOpen() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)

        client.send(request: "/wire/empty-chunked")
        let first = try client.readResponse()
        client.send(request: "/get")
        let second = try client.readResponse()

        #expect(first.status == 200)
        #expect(first.header("Transfer-Encoding") == "chunked")
        #expect(first.body.isEmpty && first.chunks.isEmpty)
        #expect(second.status == 200)
        #expect(server.connectionCount == 1)
    }

    @Test func echoBodyAnswersTheBytesAndTypeItGot() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let body = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

        let response = try server.raw(
            "/echo-body", method: "PUT", headers: ["Content-Type: application/x-test"], body: body)

        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/x-test")
        #expect(response.body == body)
    }
}
