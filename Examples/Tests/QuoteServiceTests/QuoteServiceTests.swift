import Ferry
import Foundation
import Hummingbird
import HummingbirdTesting
import InMemoryTracing
import Logging
import QuoteService
import ServiceLifecycle
import Testing
import Tracing

@Suite("A Hummingbird service calling its upstream through Ferry")
struct QuoteServiceTests {
    private func session(upstream: URL) -> Session {
        Session(
            configuration: .init(baseURL: upstream, idleTimeout: .seconds(10), transport: AsyncHTTPClientTransport()))
    }

    @Test func aQuoteComesFromTheUpstreamWithALogLineAndASpan() async throws {
        let upstream = Upstream()
        let logs = RecordingLogHandler()
        let tracer = InMemoryTracer()
        try await upstream.run { url in
            var configuration = Session.Configuration(
                baseURL: url, idleTimeout: .seconds(10), transport: AsyncHTTPClientTransport())
            configuration.tracer = tracer
            let session = Session(configuration: configuration, logger: Logger(label: "upstream") { _ in logs })
            let app = Application(router: QuoteService.makeRouter(upstream: session))
            try await app.test(.router) { client in
                try await tracer.withSpan("GET /quotes/:symbol", ofKind: .server) { incoming in
                    try await client.execute(uri: "/quotes/ABC", method: .get) { response in
                        #expect(response.status == .ok)
                        let quote = try JSONDecoder().decode(Quote.self, from: Data(buffer: response.body))
                        #expect(
                            quote == Quote(symbol: "ABC", dollars: 123.45, source: url.absoluteString + "prices/ABC"))
                    }
                    // The upstream call is a client span under the incoming request's, and one log line.
                    let call = try #require(tracer.finishedSpans.first { $0.operationName == "HTTP GET" })
                    #expect(call.kind == .client)
                    #expect(call.parentSpanID == incoming.context.inMemorySpanContext?.spanID)
                    #expect(
                        call.attributes["url.full"]?.toSpanAttribute() == .string(url.absoluteString + "prices/ABC"))
                    #expect(call.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
                }
                try await waitUntil {
                    logs.messages.contains { $0.hasPrefix("GET \(url.absoluteString)prices/ABC 200") }
                }
                try await client.execute(uri: "/quotes/NONE", method: .get) { response in
                    #expect(response.status == .notFound)
                }
            }
            await session.shutdown()
        }
    }

    @Test func cancellingTheIncomingRequestCancelsTheUpstreamCall() async throws {
        let upstream = Upstream()
        try await upstream.run { url in
            let session = session(upstream: url)
            let app = Application(router: QuoteService.makeRouter(upstream: session))
            try await app.test(.router) { client in
                let incoming = Task { try await client.execute(uri: "/quotes/SLOW", method: .get) { _ in } }
                try await waitUntil {
                    let active = await session.activeRequestCount
                    return upstream.arrived == 1 && active == 1
                }
                incoming.cancel()
                // The upstream still holds its answer back; Ferry's call ended anyway.
                try await waitUntil { await session.activeRequestCount == 0 }
                _ = await incoming.result
            }
            upstream.open()
            await session.shutdown()
        }
    }

    @Test func gracefulShutdownLetsAnUpstreamCallInFlightFinish() async throws {
        let upstream = Upstream()
        try await upstream.run { url in
            let session = session(upstream: url)
            let group = ServiceGroup(
                configuration: .init(
                    services: [.init(service: session)], logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
                ))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                let call = session.get("prices/SLOW")
                async let price = call.serializingDecodable(Price.self)
                try await waitUntil { upstream.arrived == 1 }
                await group.triggerGracefulShutdown()
                upstream.open()
                #expect(try await price == Price(symbol: "SLOW", cents: 12_345))
                try await tasks.waitForAll()
            }
            // The group ended the session: it takes no new requests.
            let refused = await session.get("prices/ABC").result
            #expect(throws: FerryError.self) { try refused.get() }
        }
    }
}
