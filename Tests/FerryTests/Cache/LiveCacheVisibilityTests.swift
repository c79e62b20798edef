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

@Suite("What the cache did, in monitors, timelines and HAR, on both transports", .timeLimit(.minutes(1)))
struct LiveCacheVisibilityTests {
    private typealias Object = [String: Any]

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

    /// The entries of a response's HAR document.
    private static func entries<Value>(
        _ response: DataResponse<Value>, includingBody: Bool = false
    ) throws
        -> [Object]
    {
        let root = try #require(
            try JSONSerialization.jsonObject(with: response.har(includingBody: includingBody)) as? Object)
        return try #require((root["log"] as? Object)?["entries"] as? [Object])
    }

    /// A JSON number, however `JSONSerialization` read it.
    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let value as Int: Double(value)
        case let value as Double: value
        case let value as NSNumber: value.doubleValue
        default: nil
        }
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

    // MARK: HAR

    @Test(arguments: TransportKind.allCases) func aHitIsAnEntryOfItsOwnWithTheCacheFilled(
        transport: TransportKind
    ) async throws {
        let live = try Self.live(transport, route: TaggedRoute(maxAge: 600))
        let miss = await live.session.get("tagged", query: [.init(name: "q", value: "1")]).response
        let hit = await live.session.get("tagged", query: [.init(name: "q", value: "1")]).response
        #expect(hit.metrics.cacheStatus == .hit)

        let entries = try Self.entries(hit, includingBody: true)

        #expect(entries.count == 1, "the cache's answer, though nothing was sent")
        let entry = try #require(entries.first)
        let cache = try #require(entry["cache"] as? Object)
        #expect((cache["comment"] as? String)?.hasPrefix("hit") == true)
        let after = try #require(cache["afterRequest"] as? Object)
        #expect(after["eTag"] as? String == "\"v1\"")
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        #expect(parser.date(from: after["lastAccess"] as? String ?? "") != nil)
        #expect(entry["comment"] as? String == "answered by the cache")
        let request = try #require(entry["request"] as? Object)
        #expect(request["method"] as? String == "GET")
        #expect((request["url"] as? String)?.hasSuffix("/tagged?q=1") == true)
        #expect((request["queryString"] as? [Object])?.first?["name"] as? String == "q")
        let response = try #require(entry["response"] as? Object)
        #expect(response["status"] as? Int == 200)
        #expect((response["content"] as? Object)?["text"] as? String == "tagged", "the stored body")
        let timings = try #require(entry["timings"] as? Object)
        #expect(Self.number(timings["blocked"]) == -1, "no slot was waited for")
        for key in ["send", "wait", "receive"] { #expect((Self.number(timings[key]) ?? -1) >= 0, "\(key)") }

        let missEntries = try Self.entries(miss)
        #expect(missEntries.count == 1)
        let missCache = try #require(missEntries.first?["cache"] as? Object)
        #expect((missCache["comment"] as? String)?.hasPrefix("miss") == true)
        #expect(missCache["afterRequest"] == nil)
    }

    @Test(arguments: TransportKind.allCases) func aRevalidatedEntryIsThe304WithTheCacheFilled(
        transport: TransportKind
    ) async throws {
        let live = try Self.live(transport, route: TaggedRoute(maxAge: 0))
        _ = await live.session.get("tagged").response

        let entries = try Self.entries(await live.session.get("tagged").response)

        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect((entry["response"] as? Object)?["status"] as? Int == 304, "what the server answered")
        let cache = try #require(entry["cache"] as? Object)
        #expect((cache["comment"] as? String)?.hasPrefix("revalidated") == true)
        #expect((cache["afterRequest"] as? Object)?["eTag"] as? String == "\"v1\"")
    }

    @Test(arguments: TransportKind.allCases) func withoutACacheTheCacheFieldStaysEmpty(
        transport: TransportKind
    ) async throws {
        let live = try Self.live(transport, route: TaggedRoute(maxAge: 600), cache: false)

        let entries = try Self.entries(await live.session.get("tagged").response)

        #expect(entries.count == 1)
        let cache = try #require(entries.first?["cache"] as? Object)
        #expect(cache.isEmpty, "{} without a cache: \(cache)")
    }

    @Test(arguments: TransportKind.allCases) func theCachesOwn504IsAnEntryWithoutAStoredResponse(
        transport: TransportKind
    ) async throws {
        let route = TaggedRoute(maxAge: 600)
        let live = try Self.live(transport, route: route)
        var request = Request(url: live.server.url("/tagged"))
        request.cachePolicy = .onlyIfCached

        let response = await live.session.request(request).unvalidated().response
        let entries = try Self.entries(response)

        #expect(response.metrics.cacheStatus == .unsatisfiable)
        #expect(route.count == 0)
        #expect(entries.count == 1)
        #expect((entries.first?["response"] as? Object)?["status"] as? Int == 504)
        let cache = try #require(entries.first?["cache"] as? Object)
        #expect((cache["comment"] as? String)?.hasPrefix("unsatisfiable") == true)
        #expect(cache["afterRequest"] == nil, "no stored response answered")
    }
}
