import Ferry
import Foundation
import Testing

/// A transport that reports its own transaction phases, as URLSession does on Apple platforms.
private struct PhaseReportingTransport: Transport {
    func send(_ request: Request, context: TransportContext) async throws -> TransportResponse {
        let start = Date()
        context.record([
            TransactionMetrics(
                fetchStart: start, connect: DateInterval(start: start, duration: 0.001),
                networkProtocolName: "http/1.1", isReusedConnection: request.url.path != "/start")
        ])
        if request.url.path == "/start" {
            return TransportResponse(
                head: HTTPResponse(statusCode: 302, headers: ["Location": "/end"], url: request.url), body: .empty)
        }
        return TransportResponse(
            head: HTTPResponse(statusCode: 200, headers: ["Content-Length": "3"], url: request.url),
            body: .chunks([Data("abc".utf8)]))
    }

    func shutdown() async {}
}

@Suite("Metrics")
struct MetricsTests {
    @Test func transactionsFromEveryHopAreKept() async throws {
        let session = Session(
            configuration: .init(baseURL: URL(string: "http://stub.test"), transport: PhaseReportingTransport()))
        let response = await session.get("start").response
        #expect(response.value == Data("abc".utf8))
        #expect(response.metrics.redirectCount == 1)
        #expect(response.metrics.urls.map(\.path) == ["/start", "/end"])
        #expect(response.metrics.transactions.map(\.isReusedConnection) == [false, true])
        #expect(response.metrics.transactions.first?.networkProtocolName == "http/1.1")
        #expect(response.metrics.bytesReceived == 3)
    }
}
