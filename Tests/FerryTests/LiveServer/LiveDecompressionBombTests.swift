import Ferry
import FerryTestServer
import Foundation
import Testing

/// gzip bombs (``TestResponse`` route `/gzip-bomb`, about 160 times expansion) with the default limits: one typed
/// error on every transport, and no more than the limit in memory.
///
/// On URLSession they run in a child process: libcurl inflates whatever it has already read before the task's
/// cancellation gets through, and FoundationNetworking drives every URLSession of the process from one work queue,
/// so every other URLSession request in the process waits meanwhile (RELIABILITY.md has the figures).
@Suite("Decompression bombs")
struct LiveDecompressionBombTests {
    /// 32 MiB of zeros from 211,355 bytes with a Content-Length: at most 100 times that may reach memory.
    static func bombWithALength(on transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let response = await live.session.get("gzip-bomb", query: [.init(name: "size", value: "\(32 << 20)")])
            .response
        #expect(response.error?.reason == .decompressionLimitExceeded, "\(String(describing: response.error))")
        #expect((response.data?.count ?? 0) <= 100 * 211_355)
    }

    /// 96 MiB of zeros, chunked: the compressed size is never declared, so on URLSession only the decoded cap
    /// (64 MiB by default) applies.
    static func chunkedBomb(on transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let response = await live.session.get(
            "gzip-bomb", query: [.init(name: "size", value: "\(96 << 20)"), .init(name: "chunked", value: "1")]
        ).response
        #expect(response.error?.reason == .decompressionLimitExceeded, "\(String(describing: response.error))")
        #expect((response.data?.count ?? 0) <= URLSessionTransport.DecompressionLimit.default.maximumDecodedSize)
    }

    @Test func urlSessionStopsBombsInAChildProcess() async throws {
        let outcome = try await ChildProcess.runTests(matching: "DecompressionBombProbe")
        #expect(outcome.succeeded, "\(outcome.output.suffix(3000))")
        #expect(outcome.output.contains("Test run with 2 tests"), "\(outcome.output.suffix(3000))")
    }

    #if AsyncHTTPClient
    @Test func asyncHTTPClientStopsABombWithALength() async throws {
        try await Self.bombWithALength(on: .asyncHTTPClient)
    }

    @Test func asyncHTTPClientStopsAChunkedBomb() async throws {
        try await Self.chunkedBomb(on: .asyncHTTPClient)
    }
    #endif
}

/// Runs only in the child process that ``LiveDecompressionBombTests/urlSessionStopsBombsInAChildProcess()``
/// starts.
@Suite(.enabled(if: ChildProcess.isProbe, "runs only in a child process: it stalls URLSession"), .serialized)
struct DecompressionBombProbe {
    @Test func urlSessionStopsABombWithALength() async throws {
        try await LiveDecompressionBombTests.bombWithALength(on: .urlSession)
    }

    @Test func urlSessionStopsAChunkedBomb() async throws {
        try await LiveDecompressionBombTests.chunkedBomb(on: .urlSession)
    }
}
