#if Tracing
import FerryLocking
import Ferry
import FerryTesting
import Foundation
import InMemoryTracing
import Testing
import Tracing

@Suite("Tracing trait: a client span per request, traceparent on every attempt")
struct TracingTests {
    @Test func aRetriedRequestIsOneSpanWithAnEventAndTheTraceOnEveryAttempt() async throws {
        let tracer = InMemoryTracer()
        let seen = Recorded()
        var configuration = Session.Configuration(
            transport: InMemoryTransport(responding: { request in
                seen.append(request.headers[InMemoryTracer.traceIDKey] ?? "none")
                return seen.count == 1 ? .status(503) : .text("ok")
            }),
            interceptors: [Interceptor.retrier { failure in failure.attempt == 1 ? .retry() : .doNotRetry }])
        configuration.tracer = tracer
        let session = Session(configuration: configuration)
        _ = try await session.get("http://127.0.0.1:8080/items?x=1").serializingData()
        let span = try #require(tracer.finishedSpans.first)
        #expect(tracer.finishedSpans.count == 1)
        #expect(span.operationName == "HTTP GET")
        #expect(span.kind == .client)
        #expect(span.attributes["http.request.method"]?.toSpanAttribute() == .string("GET"))
        #expect(span.attributes["url.full"]?.toSpanAttribute() == .string("http://127.0.0.1:8080/items?x=1"))
        #expect(span.attributes["server.address"]?.toSpanAttribute() == .string("127.0.0.1"))
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
        #expect(span.attributes["http.request.resend_count"]?.toSpanAttribute() == .int64(1))
        #expect(span.events.map(\.name) == ["http.retry"])
        // Both attempts carried the request span's trace.
        #expect(seen.values == [span.traceID, span.traceID])
    }

    @Test func theCachesDecisionIsOnTheSpan() async throws {
        let tracer = InMemoryTracer()
        var configuration = Session.Configuration(
            transport: InMemoryTransport(responding: { _ in
                StubResponse(headers: ["Cache-Control": "max-age=600"], body: Data("ok".utf8))
            }),
            cache: HTTPCache())
        configuration.tracer = tracer
        let session = Session(configuration: configuration)
        _ = try await session.get("http://127.0.0.1:8080/cached").serializingData()
        _ = try await session.get("http://127.0.0.1:8080/cached").serializingData()
        _ = try await session.post("http://127.0.0.1:8080/cached").serializingData()
        let spans = tracer.finishedSpans
        #expect(spans.count == 3)
        #expect(
            spans.map { $0.attributes["ferry.cache"]?.toSpanAttribute() } == [.string("miss"), .string("hit"), nil])
    }

    @Test func theSpanIsAChildOfTheCallersAndFailuresAreErrors() async throws {
        let tracer = InMemoryTracer()
        var configuration = Session.Configuration(transport: InMemoryTransport(responding: { _ in .status(500) }))
        configuration.tracer = tracer
        let session = Session(configuration: configuration)
        try await tracer.withSpan("incoming") { parent in
            _ = await session.get("http://127.0.0.1:8080/boom").result
            let child = try #require(tracer.finishedSpans.first { $0.operationName == "HTTP GET" })
            #expect(child.parentSpanID == parent.context.inMemorySpanContext?.spanID)
            #expect(child.status?.code == .error)
            #expect(child.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(500))
        }
    }
}

/// Values appended from a transport's handler.
final class Recorded: Sendable {
    private let storage = Locked<[String]>([])
    var values: [String] { storage.withLock { $0 } }
    var count: Int { values.count }
    func append(_ value: String) { storage.withLock { $0.append(value) } }
}
#endif
