import Ferry
import FerryLocking
import FerryTestServer
import FerryTesting
import Foundation
import Testing

/// A route that counts what reaches the server and answers with `headers`, a body naming the request's number, and
/// `304 Not Modified` to a request whose `If-None-Match` names `etag` (when there is one).
private final class CountingRoute: Sendable {
    private let state = Locked((count: 0, conditional: 0))
    let headers: [(name: String, value: String)]
    let etag: String?
    let status: Int

    /// Where the route's `Date` comes from, when it sends one of its own (a test's clock).
    let date: (@Sendable () -> Date)?

    init(
        headers: [(name: String, value: String)], etag: String? = nil, status: Int = 200,
        date: (@Sendable () -> Date)? = nil
    ) {
        self.headers = headers
        self.etag = etag
        self.status = status
        self.date = date
    }

    private static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    var count: Int { state.withLock { $0.count } }
    var conditionalCount: Int { state.withLock { $0.conditional } }

    var handler: TestServer.Handler {
        { [self] request in
            let isConditional = request.header("If-None-Match") != nil
            let number = state.withLock { state in
                state.count += 1
                if isConditional { state.conditional += 1 }
                return state.count
            }
            var validators = etag.map { [(name: "ETag", value: $0)] } ?? []
            if let date { validators.append((name: "Date", value: Self.httpDate(date()))) }
            if let etag, request.header("If-None-Match") == etag {
                return TestResponse(status: 304, headers: headers + validators)
            }
            return TestResponse(status: status, headers: headers + validators, body: .text("answer \(number)"))
        }
    }
}

extension DataResponse where Value == Data {
    /// The body as text.
    fileprivate var text: String? { data.map { String(decoding: $0, as: UTF8.self) } }
}

/// What carries a cache test's requests: each network transport, and `InMemoryTransport` answering through the same
/// server's routes in process (``TestServer/answerInProcess(_:)``), so the one suite runs on all three.
enum CacheTransport: CustomStringConvertible, Sendable, CaseIterable {
    case network(TransportKind)
    case inMemory

    static var allCases: [CacheTransport] { TransportKind.allCases.map(CacheTransport.network) + [.inMemory] }

    var description: String {
        switch self {
        case .network(let kind): kind.description
        case .inMemory: "inMemory"
        }
    }

    func makeTransport(for server: TestServer) -> any Transport {
        switch self {
        case .network(let kind):
            return kind.makeTransport()
        case .inMemory:
            return InMemoryTransport { request in
                let body = try await request.body?.bytes() ?? Data()
                let sent = TestRequest(
                    method: request.method.rawValue, target: request.url.absoluteString,
                    headers: request.headers.map { ($0.name, $0.value) }, body: body)
                guard let answer = server.answerInProcess(sent) else { throw URLError(.networkConnectionLost) }
                return StubResponse(
                    statusCode: answer.status,
                    headers: HTTPHeaders(answer.headers.map { HTTPHeader(name: $0.name, value: $0.value) }),
                    body: answer.body)
            }
        }
    }
}

/// Where a live test's cache keeps its responses: each test runs on both stores.
enum CacheStoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case memory
    case disk

    var description: String { rawValue }
}

/// The time a test's cache reads, moved on by hand.
private final class ManualClock: Sendable {
    private let time = Locked(Date())

    var now: @Sendable () -> Date { { [self] in time.withLock { $0 } } }

    func advance(by seconds: TimeInterval) {
        time.withLock { $0 += seconds }
    }
}

/// The cache's decisions as they happen, to await one made in the background.
private final class CacheDecisions: EventMonitor {
    let stream: AsyncStream<CacheStatus>
    private let continuation: AsyncStream<CacheStatus>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    func cacheDecided(_ status: CacheStatus, for request: Request, id: RequestID) async {
        continuation.yield(status)
    }
}

/// A live server whose session has a cache in a store of the given kind; a disk store's directory is removed with it.
private struct CachedLive: ~Copyable {
    let live: LiveServer
    let directory: URL?

    var server: TestServer { live.server }
    var session: Session { live.session }

    init(
        _ transport: CacheTransport, _ store: CacheStoreKind, route: CountingRoute? = nil,
        now: @escaping @Sendable () -> Date = { Date() }, monitors: [any EventMonitor] = []
    ) throws {
        var directory: URL?
        let storage: any CacheStorage
        switch store {
        case .memory:
            storage = MemoryCacheStorage()
        case .disk:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "ferry-live-cache-\(UUID().uuidString)")
            storage = try DiskCacheStorage(directory: folder)
            directory = folder
        }
        let live = try LiveServer(makeTransport: transport.makeTransport(for:)) {
            $0.cache = HTTPCache(storage: storage, now: now)
            $0.eventMonitors = monitors
        }
        if let route { live.server.setRoute("/counted", route.handler) }
        self.live = live
        self.directory = directory
    }

    deinit {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}

@Suite("The HTTP cache against the test server, on every transport and both stores", .timeLimit(.minutes(1)))
struct LiveCacheTests {
    private static func live(
        _ transport: CacheTransport, _ store: CacheStoreKind, route: CountingRoute
    ) throws -> CachedLive {
        try CachedLive(transport, store, route: route)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases) func aFreshResponseAnswersWithoutTheServer(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "max-age=600")])
        let live = try Self.live(transport, store, route: route)

        let first = await live.session.get("counted").response
        let second = await live.session.get("counted").response

        #expect(first.text == "answer 1")
        #expect(first.metrics.cacheStatus == .miss)
        #expect(second.text == "answer 1", "the stored body")
        #expect(second.metrics.cacheStatus == .hit)
        #expect(second.statusCode == 200)
        #expect(second.response?.headers["Age"] != nil, "a hit says how old it is (RFC 9111 §5.1)")
        #expect(route.count == 1, "the second request never reached the server")
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases) func aStaleResponseIsRevalidatedWithItsETag(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "max-age=0"), ("X-Version", "1")], etag: "\"v1\"")
        let live = try Self.live(transport, store, route: route)

        let first = await live.session.get("counted").response
        let second = await live.session.get("counted").response

        #expect(first.text == "answer 1")
        #expect(second.text == "answer 1", "the 304 confirmed the stored body")
        #expect(second.statusCode == 200, "the stored status, not the 304's")
        #expect(second.metrics.cacheStatus == .revalidated)
        #expect(second.response?.headers["ETag"] == "\"v1\"")
        #expect(route.count == 2)
        #expect(route.conditionalCount == 1, "the second request carried If-None-Match")
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases) func aChangedResourceReplacesTheStoredOne(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "max-age=0")], etag: "\"other\"")
        let live = try Self.live(transport, store, route: route)
        // The server's tag never matches what the client holds once it changes: serve a first version, then
        // replace the route so that the second answer is a new 200.
        _ = await live.session.get("counted").response
        let changed = CountingRoute(headers: [("Cache-Control", "max-age=600")], etag: "\"new\"")
        live.server.setRoute("/counted", changed.handler)

        let second = await live.session.get("counted").response
        let third = await live.session.get("counted").response

        #expect(second.text == "answer 1", "the new route's first answer")
        #expect(second.metrics.cacheStatus == .miss)
        #expect(third.text == "answer 1")
        #expect(third.metrics.cacheStatus == .hit, "the new response was stored in place of the old")
        #expect(changed.count == 1)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases) func noStoreIsNeverStored(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "no-store, max-age=600")])
        let live = try Self.live(transport, store, route: route)

        let first = await live.session.get("counted").response
        let second = await live.session.get("counted").response

        #expect(first.text == "answer 1")
        #expect(second.text == "answer 2")
        #expect(second.metrics.cacheStatus == .miss)
        #expect(route.count == 2)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases)
    func onlyIfCachedWithNothingStoredIsA504WithoutTheServer(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "max-age=600")])
        let live = try Self.live(transport, store, route: route)
        var request = Request(url: live.server.url("/counted"))
        request.cachePolicy = .onlyIfCached

        let response = await live.session.request(request).unvalidated().response

        #expect(response.statusCode == 504)
        #expect(response.metrics.cacheStatus == .unsatisfiable)
        #expect(route.count == 0)

        _ = await live.session.get("counted").response
        let stored = await live.session.request(request).response
        #expect(stored.text == "answer 1", "once stored, only-if-cached is answered")
        #expect(stored.metrics.cacheStatus == .hit)
        #expect(route.count == 1)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases)
    func reloadGoesToTheServerAndStoresTheNewResponse(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "max-age=600")])
        let live = try Self.live(transport, store, route: route)
        _ = await live.session.get("counted").response
        var request = Request(url: live.server.url("/counted"))
        request.cachePolicy = .reload

        let reloaded = await live.session.request(request).response
        let after = await live.session.get("counted").response

        #expect(reloaded.text == "answer 2")
        #expect(reloaded.metrics.cacheStatus == .miss)
        #expect(after.text == "answer 2", "the reloaded response replaced the stored one")
        #expect(after.metrics.cacheStatus == .hit)
        #expect(route.count == 2)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases) func aSuccessfulPostDropsTheStoredResponse(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "max-age=600")])
        let live = try Self.live(transport, store, route: route)
        _ = await live.session.get("counted").response

        let post = await live.session.post("counted", body: .text("change")).response
        let after = await live.session.get("counted").response

        #expect(post.statusCode == 200)
        #expect(post.metrics.cacheStatus == nil, "an unsafe request is never answered from the cache")
        #expect(after.text == "answer 3", "the POST invalidated the stored GET (RFC 9111 §4.4)")
        #expect(after.metrics.cacheStatus == .miss)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases) func varyKeepsOneResponsePerVariant(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let count = Locked(0)
        let live = try CachedLive(transport, store)
        live.server.setRoute("/vary") { request in
            count.withLock { $0 += 1 }
            let language = request.header("Accept-Language") ?? "none"
            return TestResponse(
                headers: [("Cache-Control", "max-age=600"), ("Vary", "Accept-Language")], body: .text(language))
        }
        func get(_ language: String) async -> DataResponse<Data> {
            await live.session.get("vary", headers: ["Accept-Language": language]).response
        }

        let french = await get("fr")
        let german = await get("de")
        let frenchAgain = await get("fr")
        let germanAgain = await get("de")

        #expect(french.text == "fr" && german.text == "de")
        #expect(german.metrics.cacheStatus == .miss, "another variant is not a hit")
        #expect(frenchAgain.text == "fr" && frenchAgain.metrics.cacheStatus == .hit)
        #expect(germanAgain.text == "de" && germanAgain.metrics.cacheStatus == .hit)
        #expect(count.withLock { $0 } == 2)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases)
    func lastModifiedAloneRevalidatesWithIfModifiedSince(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let lastModified = "Tue, 03 Nov 2026 10:00:00 GMT"
        let conditional = Locked(0)
        let live = try CachedLive(transport, store)
        live.server.setRoute("/dated") { request in
            let headers = [(name: "Cache-Control", value: "no-cache"), (name: "Last-Modified", value: lastModified)]
            if request.header("If-Modified-Since") == lastModified {
                conditional.withLock { $0 += 1 }
                return TestResponse(status: 304, headers: headers)
            }
            return TestResponse(headers: headers, body: .text("dated"))
        }

        _ = await live.session.get("dated").response
        let second = await live.session.get("dated").response

        #expect(second.text == "dated")
        #expect(second.metrics.cacheStatus == .revalidated, "no-cache: always revalidated, never served as it is")
        #expect(conditional.withLock { $0 } == 1)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases)
    func staleIfErrorServesTheStoredResponseWhenTheServerFails(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "max-age=0, stale-if-error=600")])
        let live = try Self.live(transport, store, route: route)
        _ = await live.session.get("counted").response
        let failing = CountingRoute(headers: [], status: 503)
        live.server.setRoute("/counted", failing.handler)

        let second = await live.session.get("counted").response

        #expect(second.statusCode == 200, "the stored response stands in for the 503 (RFC 5861 §4)")
        #expect(second.text == "answer 1")
        #expect(second.metrics.cacheStatus == .staleHit)
        #expect(failing.count == 1, "the server was asked first")
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases)
    func withoutStaleIfErrorTheServersErrorIsTheAnswer(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "max-age=0")])
        let live = try Self.live(transport, store, route: route)
        _ = await live.session.get("counted").response
        live.server.setRoute("/counted", CountingRoute(headers: [], status: 503).handler)

        let second = await live.session.get("counted").response

        #expect(second.statusCode == 503)
        #expect(second.metrics.cacheStatus == .miss)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases)
    func a304ForAnotherVersionIsSentAgainWithoutValidators(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let seen = Locked([String?]())
        let live = try CachedLive(transport, store)
        live.server.setRoute("/moved-on") { request in
            let number = seen.withLock { seen in
                seen.append(request.header("If-None-Match"))
                return seen.count
            }
            let headers = [(name: "Cache-Control", value: "max-age=0")]
            switch number {
            case 1: return TestResponse(headers: headers + [("ETag", "\"v1\"")], body: .text("old"))
            case 2: return TestResponse(status: 304, headers: headers + [("ETag", "\"v2\"")])
            default: return TestResponse(headers: headers + [("ETag", "\"v2\"")], body: .text("new"))
            }
        }

        _ = await live.session.get("moved-on").response
        let second = await live.session.get("moved-on").response
        _ = await live.session.get("moved-on").response

        #expect(second.text == "new", "a 304 naming another tag cannot answer for the stored response (§4.3.4)")
        #expect(second.statusCode == 200)
        #expect(second.metrics.cacheStatus == .miss)
        #expect(second.metrics.urls.count == 1)
        #expect(
            seen.withLock { $0 } == [nil, "\"v1\"", nil, "\"v2\""],
            "sent again without validators, and the new version stored in place of the old")
    }

    /// A server that leaves `ETag` out of its 304 (cache-tests.fyi's `cc-resp-no-cache-revalidate`): the 304 answers
    /// the conditions made from the stored response, which is served; nothing is sent twice.
    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases)
    func a304WithoutAValidatorRevalidatesTheStoredResponse(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let seen = Locked([String?]())
        let live = try CachedLive(transport, store)
        live.server.setRoute("/bare-304") { request in
            let number = seen.withLock { seen in
                seen.append(request.header("If-None-Match"))
                return seen.count
            }
            let headers = [(name: "Cache-Control", value: "no-cache")]
            switch number {
            case 1: return TestResponse(headers: headers + [("ETag", "\"v1\"")], body: .text("stored"))
            case 2: return TestResponse(status: 304, headers: headers)
            default: return TestResponse(headers: headers + [("ETag", "\"v2\"")], body: .text("sent again"))
            }
        }

        _ = await live.session.get("bare-304").response
        let second = await live.session.get("bare-304").response

        #expect(second.text == "stored")
        #expect(second.statusCode == 200)
        #expect(second.metrics.cacheStatus == .revalidated)
        #expect(seen.withLock { $0 } == [nil, "\"v1\""], "one conditional request, not repeated")
    }

    /// The client's own `If-None-Match`, answered by a fresh stored response (§4.3.2), then its own
    /// `If-Modified-Since` on a stale one, whose revalidation carries the client's condition and whose 304 is the
    /// client's answer (cache-tests.fyi's `conditional-etag-strong-respond` and `conditional-lm-stale`).
    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases)
    func theClientsOwnConditionsAreAnsweredWithA304(transport: CacheTransport, store: CacheStoreKind) async throws {
        let seen = Locked([[String?]]())
        let lastModified = "Sun, 06 Nov 1994 08:49:37 GMT"
        let live = try CachedLive(transport, store)
        live.server.setRoute("/own-conditions") { request in
            seen.withLock { $0.append([request.header("If-None-Match"), request.header("If-Modified-Since")]) }
            let maxAge = request.query("stale") == nil ? "max-age=600" : "max-age=0"
            let headers = [(name: "Cache-Control", value: maxAge), ("ETag", "\"v1\""), ("Last-Modified", lastModified)]
            return request.header("If-Modified-Since") == lastModified
                ? TestResponse(status: 304, headers: [])
                : TestResponse(headers: headers, body: .text("stored"))
        }

        _ = await live.session.get("own-conditions").response
        let hit = await live.session.get("own-conditions", headers: ["If-None-Match": "W/\"v0\", \"v1\""]).response
        let miss = await live.session.get("own-conditions", headers: ["If-None-Match": "\"v0\""]).response

        #expect(hit.statusCode == 304)
        #expect(hit.response?.headers["ETag"] == "\"v1\"")
        #expect(hit.data?.isEmpty != false)
        #expect(hit.metrics.cacheStatus == .hit)
        #expect(miss.statusCode == 200, "a condition that does not hold gets the stored response")
        #expect(miss.text == "stored")
        #expect(seen.withLock { $0.count } == 1, "both answered from the cache")

        _ = await live.session.get("own-conditions?stale=1").response
        let stale = await live.session.get(
            "own-conditions?stale=1", headers: ["If-Modified-Since": lastModified]
        ).response

        #expect(stale.statusCode == 304)
        #expect(seen.withLock { $0.last } == [nil, lastModified], "the client's condition went, not the cache's")
    }

    /// A range of a fresh stored response is cut from it (cache-tests.fyi's `partial-store-complete-reuse-partial`);
    /// a range it cannot answer, and a download's, go to the server.
    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases)
    func aRangeOfAStoredResponseIsAnsweredFromIt(transport: CacheTransport, store: CacheStoreKind) async throws {
        let ranges = Locked([String?]())
        let live = try CachedLive(transport, store)
        live.server.setRoute("/digits") { request in
            ranges.withLock { $0.append(request.header("Range")) }
            guard request.header("Range") == nil else {
                return TestResponse(status: 416, headers: [("Content-Range", "bytes */10")])
            }
            return TestResponse(headers: [("Cache-Control", "max-age=600")], body: .text("0123456789"))
        }

        _ = await live.session.get("digits").response
        let part = await live.session.get("digits", headers: ["Range": "bytes=2-4"]).response
        let suffix = await live.session.get("digits", headers: ["Range": "bytes=-3"]).response
        let beyond = await live.session.get("digits", headers: ["Range": "bytes=10-"]).unvalidated().response

        #expect(part.statusCode == 206)
        #expect(part.text == "234")
        #expect(part.response?.headers["Content-Range"] == "bytes 2-4/10")
        #expect(part.metrics.cacheStatus == .hit)
        #expect(suffix.text == "789")
        #expect(beyond.statusCode == 416, "the server answers a range the stored body cannot satisfy")
        #expect(ranges.withLock { $0 } == [nil, "bytes=10-"])
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases) func ageGrowsWithTheClockUntilMaxAgeEnds(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let clock = ManualClock()
        let route = CountingRoute(headers: [("Cache-Control", "max-age=60")], etag: "\"v1\"")
        let live = try CachedLive(transport, store, route: route, now: clock.now)

        _ = await live.session.get("counted").response
        clock.advance(by: 30)
        let fresh = await live.session.get("counted").response
        clock.advance(by: 31)
        let stale = await live.session.get("counted").response

        #expect(fresh.metrics.cacheStatus == .hit)
        #expect(fresh.response?.headers["Age"] == "30", "current age as §4.2.3 computes it, in whole seconds")
        #expect(stale.metrics.cacheStatus == .revalidated, "61 s old with max-age=60: stale, so revalidated")
        #expect(stale.text == "answer 1")
        #expect(route.count == 2 && route.conditionalCount == 1)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases)
    func staleWhileRevalidateServesAtOnceAndRevalidatesInTheBackground(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let clock = ManualClock()
        let decisions = CacheDecisions()
        let route = CountingRoute(
            headers: [("Cache-Control", "max-age=10, stale-while-revalidate=60")], etag: "\"v1\"", date: clock.now)
        let live = try CachedLive(transport, store, route: route, now: clock.now, monitors: [decisions])
        var seen = decisions.stream.makeAsyncIterator()

        _ = await live.session.get("counted").response
        #expect(await seen.next() == .miss)
        clock.advance(by: 30)
        let stale = await live.session.get("counted").response
        #expect(await seen.next() == .staleHit)
        #expect(await seen.next() == .revalidated, "the background request's 304 freshened the stored response")
        let fresh = await live.session.get("counted").response

        #expect(stale.metrics.cacheStatus == .staleHit, "20 s stale, within stale-while-revalidate=60: served at once")
        #expect(stale.text == "answer 1")
        #expect(fresh.metrics.cacheStatus == .hit, "fresh again after the background revalidation")
        #expect(route.count == 2 && route.conditionalCount == 1)
        await live.session.shutdown()
        #expect(await live.session.activeRequestCount == 0)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases) func maxStaleServesAStaleResponseWithinItsBound(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let clock = ManualClock()
        let route = CountingRoute(headers: [("Cache-Control", "max-age=10")])
        let live = try CachedLive(transport, store, route: route, now: clock.now)

        _ = await live.session.get("counted").response
        clock.advance(by: 20)
        let within = await live.session.get("counted", headers: ["Cache-Control": "max-stale=15"]).response
        let beyond = await live.session.get("counted", headers: ["Cache-Control": "max-stale=5"]).response

        #expect(within.metrics.cacheStatus == .staleHit, "10 s past its lifetime, within max-stale=15")
        #expect(within.text == "answer 1")
        #expect(beyond.metrics.cacheStatus == .miss, "10 s past its lifetime is beyond max-stale=5")
        #expect(beyond.text == "answer 2")
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases) func aHeadResponseFreshensOrDropsTheStoredGet(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        // The representation's tag and lifetime, changed by the test between requests.
        let state = Locked((etag: "\"v1\"", maxAge: 0, gets: 0))
        let live = try CachedLive(transport, store)
        live.server.setRoute("/resource") { request in
            let (etag, maxAge) = state.withLock { state in
                if request.method == "GET" { state.gets += 1 }
                return (state.etag, state.maxAge)
            }
            return TestResponse(
                headers: [("Cache-Control", "max-age=\(maxAge)"), ("ETag", etag)], body: .text("body of \(etag)"))
        }

        _ = await live.session.get("resource").response  // stored, already stale
        state.withLock { $0.maxAge = 600 }
        let head = await live.session.head("resource").response
        let freshened = await live.session.get("resource").response

        #expect(head.statusCode == 200)
        #expect(freshened.metrics.cacheStatus == .hit, "the HEAD's max-age=600 now applies to the stored GET (§4.3.5)")
        #expect(freshened.text == "body of \"v1\"")
        #expect(state.withLock { $0.gets } == 1)

        state.withLock { $0.etag = "\"v2\"" }
        _ = await live.session.head("resource").response
        let replaced = await live.session.get("resource").response

        #expect(replaced.metrics.cacheStatus == .miss, "a HEAD with another ETag dropped the stored response")
        #expect(replaced.text == "body of \"v2\"")
        #expect(state.withLock { $0.gets } == 2)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases) func aDownloadIsStoredAndServedFromTheCache(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let body = TestServer.patternBytes(count: 300_000)  // several of the store's 64 KiB chunks
        let count = Locked(0)
        let live = try CachedLive(transport, store)
        live.server.setRoute("/file") { _ in
            count.withLock { $0 += 1 }
            return TestResponse(headers: [("Cache-Control", "max-age=600")], body: .data(body))
        }
        let directory = try TemporaryDirectory()

        let first = await live.session.download("file", to: directory.file("first.bin")).response
        let download = live.session.download("file", to: directory.file("second.bin"))
        async let placed = download.value
        var progress: [TransferProgress] = []
        for await snapshot in download.downloadProgress { progress.append(snapshot) }
        let file = try await placed
        let second = await download.response
        let asData = await live.session.get("file").response

        #expect(first.metrics.cacheStatus == .miss)
        #expect(second.metrics.cacheStatus == .hit)
        #expect(try Data(contentsOf: file) == body, "the stored body, written to the new file")
        #expect(progress.last?.completedBytes == 300_000)
        #expect(asData.metrics.cacheStatus == .hit, "a download's response answers a data request too")
        #expect(asData.data == body)
        #expect(count.withLock { $0 } == 1)
        try FileManager.default.removeItem(at: directory.file("first.bin"))
        let third = await live.session.download("file", to: directory.file("third.bin")).response
        #expect(third.metrics.cacheStatus == .hit, "the store kept its own copy, not the user's file")
        #expect(try Data(contentsOf: directory.file("third.bin")) == body)
    }

    @Test(arguments: CacheTransport.allCases, CacheStoreKind.allCases) func aStreamSkipsTheCache(
        transport: CacheTransport, store: CacheStoreKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "max-age=600")])
        let live = try CachedLive(transport, store, route: route)
        _ = await live.session.get("counted").response

        var lines: [String] = []
        for try await line in live.session.stream("counted").lines { lines.append(line) }

        #expect(lines == ["answer 2"], "a stream reads the server's body as it comes")
        #expect(route.count == 2)

        let post = Request(.post, url: live.server.url("/counted"), body: .data(Data("x".utf8)))
        for try await _ in live.session.stream(post).lines {}
        let afterPost = await live.session.get("counted").response
        #expect(afterPost.metrics.cacheStatus == .miss, "a stream's successful POST invalidated the stored response")
    }

    @Test(arguments: TransportKind.allCases) func aDiskCacheAnswersANewSessionAfterARestart(
        transport: TransportKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "max-age=600")])
        let live = try CachedLive(.network(transport), .disk, route: route)
        let liveDirectory = live.directory
        let directory = try #require(liveDirectory)
        _ = await live.session.get("counted").response

        let reopened = try DiskCacheStorage(directory: directory)
        let restarted = try LiveServer(transport: transport) {
            $0.cache = HTTPCache(storage: reopened)
            $0.baseURL = live.server.baseURL
        }
        let again = await restarted.session.get("counted").response

        #expect(again.text == "answer 1")
        #expect(again.metrics.cacheStatus == .hit)
        #expect(route.count == 1)
    }

    @Test(arguments: TransportKind.allCases) func aCorruptBodyOnDiskIsAMissNotAnError(
        transport: TransportKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "max-age=600")])
        let live = try CachedLive(.network(transport), .disk, route: route)
        let liveDirectory = live.directory
        let bodies = try #require(liveDirectory).appendingPathComponent("bodies")
        _ = await live.session.get("counted").response
        for name in try FileManager.default.contentsOfDirectory(atPath: bodies.path) {
            // The same length, other bytes.
            try Data("answer X".utf8).writeUnsynced(to: bodies.appendingPathComponent(name))
        }

        let second = await live.session.get("counted").response
        let third = await live.session.get("counted").response

        #expect(second.error == nil)
        #expect(second.text == "answer 2", "the corrupt entry was dropped and the server asked")
        #expect(second.metrics.cacheStatus == .miss)
        #expect(third.text == "answer 2")
        #expect(third.metrics.cacheStatus == .hit, "the new response was stored in its place")
        #expect(route.count == 2)
    }

    @Test(arguments: TransportKind.allCases) func withoutACacheEveryRequestGoesToTheServer(
        transport: TransportKind
    ) async throws {
        let route = CountingRoute(headers: [("Cache-Control", "max-age=600")])
        let live = try LiveServer(transport: transport)
        live.server.setRoute("/counted", route.handler)

        let first = await live.session.get("counted").response
        let second = await live.session.get("counted").response

        #expect(second.text == "answer 2")
        #expect(first.metrics.cacheStatus == nil && second.metrics.cacheStatus == nil)
        #expect(route.count == 2)
    }
}

@Suite("MemoryCacheStorage")
struct MemoryCacheStorageTests {
    private static func entry(_ size: Int) -> CachedResponse {
        CachedResponse(
            requestHeaders: [:], response: HTTPResponse(statusCode: 200, url: URL(string: "http://localhost/")!),
            body: .data(Data(count: size)), requestTime: Date(), responseTime: Date())
    }

    /// What an entry of `size` body bytes costs the store (its bookkeeping included).
    private static func cost(_ size: Int) -> Int { size + 2_048 }

    @Test func theLeastRecentlyUsedKeyGoesFirstWhenTheBudgetIsFull() async {
        let limit = Self.cost(1_000) * 2 + 500
        let storage = MemoryCacheStorage(byteLimit: limit)
        await storage.setEntries([Self.entry(1_000)], for: "a")
        await storage.setEntries([Self.entry(1_000)], for: "b")
        _ = await storage.entries(for: "a")  // a is now more recent than b
        await storage.setEntries([Self.entry(1_000)], for: "c")

        #expect(await storage.entries(for: "a").count == 1)
        #expect(await storage.entries(for: "b").isEmpty, "the least recently used was evicted")
        #expect(await storage.entries(for: "c").count == 1)
        #expect(storage.currentByteCount <= limit)
    }

    @Test func aResponseLargerThanTheBudgetIsNotKept() async {
        let storage = MemoryCacheStorage(byteLimit: Self.cost(1_000) - 1)
        await storage.setEntries([Self.entry(1_000)], for: "a")
        #expect(await storage.entries(for: "a").isEmpty)
        #expect(storage.currentByteCount == 0)
    }

    @Test func replacingAKeyFreesWhatItHeld() async {
        let storage = MemoryCacheStorage(byteLimit: 20_000)
        await storage.setEntries([Self.entry(4_000)], for: "a")
        await storage.setEntries([Self.entry(1_000)], for: "a")
        #expect(storage.currentByteCount < Self.cost(2_000))
        await storage.setEntries([], for: "a")
        #expect(storage.currentByteCount == 0)
        await storage.setEntries([Self.entry(10)], for: "b")
        await storage.removeAll()
        #expect(storage.currentByteCount == 0)
    }
}
