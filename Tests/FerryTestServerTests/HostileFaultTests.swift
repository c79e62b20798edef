import Foundation
import Testing

@testable import FerryTestServer

/// The faults and bodies a hostile server sends, as a client sees them on the socket.
@Suite("Hostile faults")
struct HostileFaultTests {
    private func exchange(_ server: TestServer, _ target: String) throws -> (text: String, ending: RawClient.Ending) {
        let client = try RawClient(port: server.port)
        client.send(request: target)
        let (bytes, ending) = client.readAll(timeout: .seconds(5))
        return (String(decoding: bytes, as: UTF8.self), ending)
    }

    @Test(arguments: [
        ("/fault/bad-length", ["99999999999999999999999"]), ("/fault/negative-length", ["-1"]),
        ("/fault/conflicting-lengths", ["10", "4"]), ("/fault/joined-lengths", ["10, 4"]),
    ])
    func framingFaultsSendTheirContentLengthsAsTheyAre(path: String, lengths: [String]) throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, path)

        let fields = result.text.components(separatedBy: "\r\n").filter { $0.hasPrefix("Content-Length: ") }
        #expect(fields == lengths.map { "Content-Length: \($0)" })
        #expect(result.text.hasSuffix("\r\n\r\ntruncated"))
        #expect(result.ending == .endOfStream)
    }

    @Test func theTrailerFaultEndsItsLastChunkWithATrailerField() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let result = try exchange(server, "/fault/trailer")

        #expect(result.text.contains("Transfer-Encoding: chunked\r\n"))
        #expect(result.text.hasSuffix("\r\n\r\n5\r\nhello\r\n0\r\nX-A: 1\r\n\r\n"))
    }

    @Test func theContinueStormNeverSendsAFinalHeadAndEndsAtShutdown() throws {
        let server = try TestServer()
        let client = try RawClient(port: server.port)
        client.send(request: "/fault/continue-storm")

        // Far more than one send's worth of interim heads (5,000 × 25 bytes), and nothing else.
        var statuses = Set<Int>()
        for _ in 0..<5_000 {
            statuses.insert(try client.readResponse(timeout: .seconds(5)).status)
        }
        #expect(statuses == [100])
        server.shutdown()
        #expect(server.openDescriptors.isEmpty)
    }

    @Test func theBombIsAFixedHuffmanRunAfterAOneByteStoredBlock() {
        // Checked against zlib when written: these bytes inflate (raw DEFLATE) to 259 + 3 × 2064 zeros.
        let unit: [UInt8] = [0xA3, 0x60, 0x14, 0x8C, 0x82, 0x51, 0x30, 0x0A, 0x46, 0xC1, 0x28, 0x18, 0x05]
        var expected: [UInt8] = [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03]
        expected += [0x00, 0x01, 0x00, 0xFE, 0xFF, 0x00] + [0x1B, 0x05] + unit + unit + unit + [0x00]
        let size = UInt32(259 + 3 * 2064)
        expected += [0, 0, 0, 0] + (0..<4).map { UInt8(truncatingIfNeeded: size >> ($0 * 8)) }

        #expect([UInt8](DeflateBomb.gzip(decodedSize: 259 + 3 * 2064)) == expected)
    }

    @Test func theBombRouteIsSmallAndSaysGzip() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RawClient(port: server.port)
        client.send(request: "/gzip-bomb?size=\(64 << 20)")

        let response = try client.readResponse(timeout: .seconds(5))

        #expect(response.header("Content-Encoding") == "gzip")
        #expect(response.body.count < (64 << 20) / 150)
    }
}
