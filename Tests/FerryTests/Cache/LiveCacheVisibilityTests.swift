import Ferry
import FerryLocking
import FerryTestServer
import Foundation
import Testing

/// A cacheable route (`max-age` as given, `ETag: "v1"`) that counts what reaches it, answers `304` to a request
/// whose `If-None-Match` names its tag, and `status` otherwise.
private final class TaggedRoute: Sendable {
    private let hits = Locked(0)
    let maxAge: Int
    let extra: [(name: String, value: String)]
    let status: Int

    init(maxAge: Int, extra: [(name: String, value: String)] = [], status: Int = 200) {
        self.maxAge = maxAge
        self.extra = extra
        self.status = status
    }

    var count: Int { hits.withLock { $0 } }

    var handler: TestServer.Handler {
        { [self] request in
            hits.withLock { $0 += 1 }
            let headers =
                [(name: "Cache-Control", value: "max-age=\(maxAge)"), (name: "ETag", value: "\"v1\"")] + extra
            if request.header("If-None-Match") == "\"v1\"" { return TestResponse(status: 304, headers: headers) }
            return TestResponse(status: status, headers: headers, body: .text("tagged"))
        }
    }
}

@Suite("What the cache did, in monitors and timelines, on both transports", .timeLimit(.minutes(1)))
struct LiveCacheVisibilityTests {
    private static func live(
        _ transport: TransportKind, route: TaggedRoute, monitor: RecordingMonitor? = nil, cache: Bool = true
    ) throws -> LiveServer {
        let live = try LiveServer(transport: transport) { configuration in
            if cache { configuration.cache = HTTPCache() }
            if let monitor { configuration.eventMonitors = [monitor] }
        }
        live.server.setRoute("/tagged", route.handler)
        return live
    }

    // MARK: Event monitors

    @Test(arguments: TransportKind.allCases) func aMonitorSeesAMissBeforeTheAttemptThenAHitWithoutOne(
        transport: TransportKind
    ) async throws {
        let monitor = RecordingMonitor()
        let route = TaggedRoute(maxAge: 600)
        let live = try Self.live(transport, route: route, monitor: monitor)

        _ = await live.session.get("tagged").response
        let second = await live.session.get("tagged").response

        #expect(second.metrics.cacheStatus == .hit)
        try await waitUntil { monitor.events().count { $0.hasPrefix("completed") } == 2 }
        // One buffer per monitor, in order: the first request's events all come before the second's.
        #expect(
            monitor.events() == [
                "created /tagged", "cache miss /tagged", "attempt 1", "head 200", "completed 200 retries 0",
                "created /tagged", "cache hit /tagged", "completed 200 retries 0",
            ])
        #expect(route.count == 1)
    }

    @Test(arguments: TransportKind.allCases) func aRevalidationIsReportedOnceWithTheServersAnswer(
        transport: TransportKind
    ) async throws {
        let monitor = RecordingMonitor()
        let live = try Self.live(transport, route: TaggedRoute(maxAge: 0), monitor: monitor)

        _ = await live.session.get("tagged").response
        let second = await live.session.get("tagged").response

        #expect(second.metrics.cacheStatus == .revalidated)
        try await waitUntil { monitor.events().count { $0.hasPrefix("completed") } == 2 }
        #expect(
            Array(monitor.events().dropFirst(5)) == [
                "created /tagged", "attempt 1", "head 304", "cache revalidated /tagged", "completed 200 retries 0",
            ])
    }

    @Test(arguments: TransportKind.allCases) func staleIfErrorIsReportedAsAStaleHitAfterTheFailedAnswer(
        transport: TransportKind
    ) async throws {
        let monitor = RecordingMonitor()
        let live = try Self.live(
            transport, route: TaggedRoute(maxAge: 0, extra: [("Cache-Control", "stale-if-error=600")]),
            monitor: monitor)
        _ = await live.session.get("tagged").response
        live.server.setRoute("/tagged") { _ in TestResponse(status: 503) }

        let second = await live.session.get("tagged").response

        #expect(second.metrics.cacheStatus == .staleHit)
        #expect(second.statusCode == 200)
        try await waitUntil { monitor.events().count { $0.hasPrefix("completed") } == 2 }
        #expect(
            Array(monitor.events().dropFirst(5)) == [
                "created /tagged", "attempt 1", "head 503", "cache staleHit /tagged", "completed 200 retries 0",
            ])
    }

    @Test(arguments: TransportKind.allCases) func anUnsafeRequestAndASessionWithoutCacheReportNoDecision(
        transport: TransportKind
    ) async throws {
        let cached = RecordingMonitor()
        let live = try Self.live(transport, route: TaggedRoute(maxAge: 600), monitor: cached)
        let uncached = RecordingMonitor()
        let plain = try Self.live(transport, route: TaggedRoute(maxAge: 600), monitor: uncached, cache: false)

        _ = await live.session.post("tagged", body: .text("x")).response
        _ = await plain.session.get("tagged").response

        try await waitUntil { cached.events().last?.hasPrefix("completed") == true }
        try await waitUntil { uncached.events().last?.hasPrefix("completed") == true }
        #expect(!cached.events().contains { $0.hasPrefix("cache") }, "a POST only invalidates")
        #expect(!uncached.events().contains { $0.hasPrefix("cache") })
    }

    // MARK: Timeline

    @Test(arguments: TransportKind.allCases) func theTimelineHasTheInstantTheCacheDecided(
        transport: TransportKind
    ) async throws {
        let live = try Self.live(transport, route: TaggedRoute(maxAge: 600))
        let plain = try Self.live(transport, route: TaggedRoute(maxAge: 600), cache: false)

        let miss = await live.session.get("tagged").response.timeline
        let hit = await live.session.get("tagged").response.timeline
        let uncached = await plain.session.get("tagged").response.timeline

        let missDecided = try #require(miss.cacheDecided)
        let firstSent = try #require(miss.attempts.first?.start)
        #expect(missDecided <= firstSent, "a miss is decided by the lookup, before sending")
        let hitDecided = try #require(hit.cacheDecided)
        #expect(hit.attempts.isEmpty, "nothing was sent")
        #expect(hit.requestStart <= hitDecided && hitDecided <= hit.requestCompleted)
        #expect(hit.cacheDuration == hit.requestStart.duration(to: hitDecided))
        #expect(hit.description.hasPrefix("cache decided at "))
        #expect(uncached.cacheDecided == nil && uncached.cacheDuration == nil)
        #expect(!uncached.description.contains("cache"))
    }

    @Test(arguments: TransportKind.allCases) func aRevalidationIsDecidedWhenThe304Came(
        transport: TransportKind
    ) async throws {
        let live = try Self.live(transport, route: TaggedRoute(maxAge: 0))
        _ = await live.session.get("tagged").response

        let timeline = await live.session.get("tagged").response.timeline

        let decided = try #require(timeline.cacheDecided)
        let head = try #require(timeline.attempts.last?.responseStart)
        #expect(head <= decided && decided <= timeline.requestCompleted)
    }
}
