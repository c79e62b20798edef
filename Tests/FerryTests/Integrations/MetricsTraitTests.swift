#if Metrics
import Ferry
import FerryTesting
import Foundation
import Metrics
import MetricsTestKit
import Testing

@Suite("Metrics trait: durations, active requests, retries, timeouts")
struct MetricsTraitTests {
    @Test func aFinishedRequestRecordsItsDurationAndLeavesNothingActive() async throws {
        let metrics = TestMetrics()
        let session = Session(
            configuration: .init(
                transport: InMemoryTransport(responding: { request in
                    request.url.path == "/missing" ? .status(404) : .text("ok")
                }),
                eventMonitors: [MetricsEventMonitor(factory: metrics)]))
        _ = try await session.get("http://stub.test/a").serializingData()
        _ = await session.get("http://stub.test/missing").result
        try await waitUntil {
            (try? metrics.expectTimer(
                "http.client.request.duration",
                [("http.request.method", "GET"), ("http.response.status_code", "4xx"), ("server.address", "stub.test")]
            ).values.count) == 1
        }
        let ok = try metrics.expectTimer(
            "http.client.request.duration",
            [("http.request.method", "GET"), ("http.response.status_code", "2xx"), ("server.address", "stub.test")])
        #expect(ok.values.count == 1)
        #expect((ok.values.first ?? -1) >= 0)
        let active = try metrics.expectMeter("http.client.active_requests")
        #expect(active.values.max() ?? 0 >= 1)
        #expect(active.lastValue == 0)
    }

    @Test func retriesAreCounted() async throws {
        let metrics = TestMetrics()
        let calls = Counter()
        let session = Session(
            configuration: .init(
                transport: InMemoryTransport(responding: { _ in
                    calls.increment()
                    return calls.count == 1 ? .status(503) : .text("ok")
                }),
                interceptors: [Interceptor.retrier { _ in .retry() }],
                eventMonitors: [MetricsEventMonitor(factory: metrics)]))
        _ = try await session.get("http://stub.test/flaky").serializingData()
        try await waitUntil { metrics.counterTotal(label: "http.client.retries") == 1 }
        #expect(calls.count == 2)
    }

    @Test func theCachesDecisionsAreCountedByStatus() async throws {
        let metrics = TestMetrics()
        let session = Session(
            configuration: .init(
                transport: InMemoryTransport(responding: { _ in
                    StubResponse(headers: ["Cache-Control": "max-age=600"], body: Data("ok".utf8))
                }),
                eventMonitors: [MetricsEventMonitor(factory: metrics)], cache: HTTPCache()))
        for _ in 0..<3 { _ = try await session.get("http://stub.test/cached").serializingData() }
        try await waitUntil { metrics.counterTotal(label: "ferry.cache.requests") == 3 }
        let server = ("server.address", "stub.test")
        #expect(
            metrics.counterTotal(label: "ferry.cache.requests", dimensions: [("ferry.cache", "miss"), server]) == 1)
        #expect(metrics.counterTotal(label: "ferry.cache.requests", dimensions: [("ferry.cache", "hit"), server]) == 2)
    }
}
#endif
