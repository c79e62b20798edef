import FerryTestServer
import Foundation
import Testing

@testable import Ferry

/// What a hostile or broken server can do, on every transport: each case ends in a typed error, promptly, and
/// never as a success with wrong data. RELIABILITY.md lists them.
@Suite("Hostile servers")
struct LiveHostileServerTests {
    @Test(
        arguments: TransportKind.allCases,
        ["fault/bad-length", "fault/negative-length", "fault/conflicting-lengths", "fault/joined-lengths"])
    func anInvalidOrConflictingContentLengthIsAFramingError(transport: TransportKind, path: String) async throws {
        // Given: a head whose Content-Length is unparsable, negative or conflicting, 9 bytes, then a close. (The idle
        // timeout only bounds a hang, generously for a loaded machine.)
        let live = try LiveServer(transport: transport) { $0.idleTimeout = Duration.seconds(30).scaled }

        // When
        let response = await live.session.get(path).response

        // Then: never a success with a truncated body.
        let error = try #require(response.error, "\(path) must fail")
        #expect(error.reason == .transport(.invalidResponse), "\(path): \(error)")
        #expect(response.data?.isEmpty ?? true)
        #expect(try await live.session.get("get").serializingJSON()["url"] != nil)
    }

    @Test(arguments: TransportKind.allCases)
    func anIdenticalRepeatedContentLengthIsALength(transport: TransportKind) async throws {
        // RFC 9110 §8.6 lets a recipient take `9, 9` as 9. URLSession and Ferry do; AsyncHTTPClient's parser
        // (llhttp) refuses any repeated Content-Length, which the RFC allows too.
        // The idle timeout only bounds a hang (as in the fault and framing suites): 5 s was once too short for
        // AsyncHTTPClient's answer while the whole suite ran on two cores.
        let live = try LiveServer(transport: transport) { $0.idleTimeout = Duration.seconds(30).scaled }
        live.server.setRoute("/repeated") { _ in .fault(.contentLengths(["9", "9"], body: Data("truncated".utf8))) }
        let response = await live.session.get("repeated").response
        if let error = response.error {
            #expect(transport != .urlSession, "\(error)")
            #expect(error.reason == .transport(.invalidResponse))
        } else {
            #expect(response.data == Data("truncated".utf8))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRefusedConnectionFailsFast(transport: TransportKind) async throws {
        // Given: a loopback port that refuses connections.
        let refusing = try RefusingPort()
        let port = refusing.port
        let session = Session(transport: transport.makeTransport())

        // When
        let start = ContinuousClock.now
        let error = await #expect(throws: FerryError.self) { try await session.get("http://127.0.0.1:\(port)/").value }
        withExtendedLifetime(refusing) {}
        let elapsed = ContinuousClock.now - start

        // Then: at once (about 1 ms), not after AsyncHTTPClient's connect retries until its 10 s connect timeout; the
        // bound leaves room for a loaded machine's pauses.
        #expect(error?.reason == .transport(.cannotConnect))
        #expect(elapsed < Duration.seconds(9).scaled, "a refused connection took \(elapsed)")
        await session.shutdown()
    }

    @Test(arguments: TransportKind.allCases)
    func anEndlessStreamOfContinueHeadsEnds(transport: TransportKind) async throws {
        // Given: `100 Continue` heads without end. libcurl gives up by itself; AsyncHTTPClient drops every 1xx
        // head without telling its delegate, so the request has no head and no body: Ferry's idle timeout ends it.
        let live = try LiveServer(transport: transport) { $0.idleTimeout = .seconds(1) }

        // When
        let response = await live.session.get("fault/continue-storm").response

        // Then
        let error = try #require(response.error)
        if transport == .urlSession {
            #expect(error.reason == .transport(.invalidResponse) || error.reason == .timedOut(.idle), "\(error)")
        } else {
            #expect(error.reason == .timedOut(.idle), "\(error)")
        }
        #expect(response.timeline.requestDuration < Duration.seconds(30).scaled)
    }

    @Test func aCompressedBodyWithinTheLimitIsDecoded() async throws {
        // 16 MiB of pattern bytes in stored blocks: a ratio of 1, well within both limits.
        for transport in TransportKind.allCases {
            let live = try LiveServer(transport: transport)
            let data = try await live.session.get("gzip", query: [.init(name: "size", value: "\(16 << 20)")])
                .serializingData()
            #expect(data == TestServer.patternBytes(count: 16 << 20), "\(transport)")
        }
    }

    @Test func aURLSessionLimitScalesWithTheDeclaredLength() {
        let limit = URLSessionTransport.DecompressionLimit(ratio: 10, maximumDecodedSize: 1000)
        func head(_ fields: HTTPHeaders) -> HTTPResponse {
            HTTPResponse(statusCode: 200, headers: fields, url: URL(string: "http://127.0.0.1/")!)
        }
        #expect(limit.decodedLimit(for: head(["Content-Length": "50"])) == nil)
        #expect(limit.decodedLimit(for: head(["Content-Encoding": "identity", "Content-Length": "50"])) == nil)
        #expect(limit.decodedLimit(for: head(["Content-Encoding": "gzip", "Content-Length": "50"])) == 500)
        #expect(limit.decodedLimit(for: head(["Content-Encoding": "gzip", "Content-Length": "500"])) == 1000)
        #expect(limit.decodedLimit(for: head(["Content-Encoding": "gzip"])) == 1000)
        #expect(
            URLSessionTransport.DecompressionLimit.none.decodedLimit(
                for: head(["Content-Encoding": "gzip", "Content-Length": "5"])) == .max)
    }
}
