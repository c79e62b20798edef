@testable import Ferry
import Foundation
import Testing

@Suite("Cache lookup decision (RFC 9111 §4)")
struct CacheLookupTests {
    typealias F = CacheFixtures

    /// A response received at t0 (sent at t0, Date t0) with an ETag, fresh for `maxAge` seconds.
    static func stored(_ cacheControl: String = "max-age=100", extra: HTTPHeaders = [:]) -> StoredResponse {
        var headers: HTTPHeaders = ["Cache-Control": cacheControl, "ETag": #""v1""#]
        for field in extra { headers.add(name: field.name, value: field.value) }
        return F.stored(headers)
    }

    static func decide(
        _ stored: StoredResponse?, request: HTTPHeaders = [:], at now: TimeInterval, mode: CacheMode = .private,
        method: HTTPMethod = .get
    ) -> CacheLookup {
        CacheLookup.decide(
            request: F.request(request, method: method), candidates: stored.map { [$0] } ?? [], mode: mode,
            now: F.at(now))
    }

    /// The revalidation of `stored` by a request with `request` headers.
    static func revalidation(
        _ stored: StoredResponse, request: HTTPHeaders = [:], usableOnError: Bool = false
    )
        -> CacheLookup
    {
        .revalidate(
            stored, headers: ConditionalRequest.headers(for: request, revalidating: stored),
            usableOnError: usableOnError)
    }

    @Test func freshIsAHitWithItsAge() {
        let stored = Self.stored()
        #expect(Self.decide(stored, at: 50) == .fresh(stored, age: "50"))
    }

    @Test func atTheEndOfItsLifetimeItIsStale() {
        // §4.2: fresh while freshness_lifetime > current_age.
        let stored = Self.stored()
        #expect(Self.decide(stored, at: 99) == .fresh(stored, age: "99"))
        #expect(Self.decide(stored, at: 100) == Self.revalidation(stored))
    }

    @Test func staleIsRevalidatedWithItsETag() throws {
        let stored = Self.stored()
        let decision = Self.decide(stored, at: 150)
        guard case .revalidate(let revalidated, let headers, let usableOnError) = decision else {
            Issue.record("expected a revalidation, got \(decision)")
            return
        }
        #expect(revalidated == stored)
        #expect(headers["If-None-Match"] == #""v1""#)
        #expect(!usableOnError)
    }

    @Test func nothingStoredIsAMiss() {
        #expect(Self.decide(nil, at: 0) == .miss)
    }

    @Test(arguments: [HTTPMethod.head, .post, .delete])
    func onlyGetIsAnsweredFromTheCache(method: HTTPMethod) {
        #expect(Self.decide(Self.stored(), at: 1, method: method) == .miss)
    }

    @Test(arguments: ["no-cache, max-age=100", #"no-cache="Set-Cookie", max-age=100"#, "max-age=100, NO-CACHE"])
    func responseNoCacheAlwaysRevalidates(cacheControl: String) {
        let stored = Self.stored(cacheControl)
        #expect(Self.decide(stored, at: 1) == Self.revalidation(stored))
    }

    @Test(
        arguments: [["Cache-Control": "no-cache"], ["Pragma": "no-cache"], ["Cache-Control": "max-age=0"]]
            as [HTTPHeaders])
    func aReloadRevalidatesAFreshResponse(request: HTTPHeaders) {
        let stored = Self.stored()
        #expect(
            Self.decide(stored, request: request, at: 1)
                == Self.revalidation(stored, request: request, usableOnError: true))
    }

    @Test func requestMaxAge() {
        let stored = Self.stored()
        #expect(Self.decide(stored, request: ["Cache-Control": "max-age=60"], at: 50) == .fresh(stored, age: "50"))
        #expect(Self.decide(stored, request: ["Cache-Control": "max-age=60"], at: 60) == .fresh(stored, age: "60"))
        let request: HTTPHeaders = ["Cache-Control": "max-age=10"]
        #expect(
            Self.decide(stored, request: request, at: 50)
                == Self.revalidation(stored, request: request, usableOnError: true))
    }

    @Test func minFresh() {
        let stored = Self.stored()
        // At 50, 50 s of freshness are left.
        #expect(Self.decide(stored, request: ["Cache-Control": "min-fresh=50"], at: 50) == .fresh(stored, age: "50"))
        let request: HTTPHeaders = ["Cache-Control": "min-fresh=51"]
        #expect(
            Self.decide(stored, request: request, at: 50)
                == Self.revalidation(stored, request: request, usableOnError: true))
    }

    @Test(
        arguments: [["Cache-Control": "no-cache"], ["Pragma": "no-cache"], ["Cache-Control": "max-age=0"]]
            as [HTTPHeaders])
    func aFreshImmutableResponseIgnoresAReload(request: HTTPHeaders) {
        let stored = Self.stored("max-age=100, immutable")
        #expect(Self.decide(stored, request: request, at: 1) == .fresh(stored, age: "1"))
    }

    @Test func aStaleImmutableResponseIsRevalidated() {
        let stored = Self.stored("max-age=100, immutable")
        #expect(Self.decide(stored, at: 101) == Self.revalidation(stored))
    }

    @Test func immutableDoesNotOverrideResponseNoCache() {
        let stored = Self.stored("max-age=100, immutable, no-cache")
        #expect(Self.decide(stored, at: 1) == Self.revalidation(stored))
    }

    @Test func maxStaleWithoutAValueServesAnyStaleness() {
        let stored = Self.stored()
        #expect(
            Self.decide(stored, request: ["Cache-Control": "max-stale"], at: 100_000)
                == .stale(stored, age: "100000", revalidateInBackground: false))
    }

    @Test func maxStaleWithAValue() {
        let stored = Self.stored()
        // At 150 the response is 50 s stale.
        #expect(
            Self.decide(stored, request: ["Cache-Control": "max-stale=50"], at: 150)
                == .stale(stored, age: "150", revalidateInBackground: false))
        let request: HTTPHeaders = ["Cache-Control": "max-stale=49"]
        #expect(Self.decide(stored, request: request, at: 150) == Self.revalidation(stored, request: request))
    }

    @Test(arguments: [
        ("max-age=100, must-revalidate", CacheMode.private), ("max-age=100, must-revalidate", .shared),
        ("max-age=100, proxy-revalidate", .shared), ("s-maxage=100", .shared),
    ])
    func aDirectiveForbidsServingStale(cacheControl: String, mode: CacheMode) {
        let stored = Self.stored(cacheControl)
        let request: HTTPHeaders = ["Cache-Control": "max-stale"]
        #expect(
            Self.decide(stored, request: request, at: 150, mode: mode) == Self.revalidation(stored, request: request))
    }

    @Test func proxyRevalidateIsForSharedCachesOnly() {
        let stored = Self.stored("max-age=100, proxy-revalidate")
        #expect(
            Self.decide(stored, request: ["Cache-Control": "max-stale"], at: 150, mode: .private)
                == .stale(stored, age: "150", revalidateInBackground: false))
    }

    @Test func staleWhileRevalidate() {
        let stored = Self.stored("max-age=100, stale-while-revalidate=60")
        #expect(Self.decide(stored, at: 160) == .stale(stored, age: "160", revalidateInBackground: true))
        #expect(Self.decide(stored, at: 161) == Self.revalidation(stored))
    }

    @Test func mustRevalidateOverridesStaleWhileRevalidate() {
        let stored = Self.stored("max-age=100, stale-while-revalidate=60, must-revalidate")
        #expect(Self.decide(stored, at: 120) == Self.revalidation(stored))
    }

    @Test func staleIfErrorMakesARevalidatedResponseUsableOnError() {
        let stored = Self.stored("max-age=100, stale-if-error=60")
        #expect(Self.decide(stored, at: 160) == Self.revalidation(stored, usableOnError: true))
        #expect(Self.decide(stored, at: 161) == Self.revalidation(stored, usableOnError: false))
    }

    @Test func theRequestMayGrantStaleIfError() {
        let stored = Self.stored()
        let request: HTTPHeaders = ["Cache-Control": "stale-if-error=300"]
        #expect(
            Self.decide(stored, request: request, at: 400)
                == Self.revalidation(stored, request: request, usableOnError: true))
        #expect(
            Self.decide(stored, request: request, at: 401)
                == Self.revalidation(stored, request: request, usableOnError: false))
    }

    @Test(arguments: ["max-age=100, stale-if-error=60, must-revalidate", "max-age=100, stale-if-error=60, no-cache"])
    func staleIfErrorIsOverridden(cacheControl: String) {
        let stored = Self.stored(cacheControl)
        #expect(!StaleIfError.allowsServing(stored, requestDirectives: CacheControl(), mode: .private, now: F.at(120)))
    }

    @Test func aFreshResponseIsUsableOnError() {
        #expect(
            StaleIfError.allowsServing(Self.stored(), requestDirectives: CacheControl(), mode: .private, now: F.at(1)))
        // ...even with must-revalidate, which speaks of stale responses only.
        let stored = Self.stored("max-age=100, must-revalidate")
        #expect(StaleIfError.allowsServing(stored, requestDirectives: CacheControl(), mode: .private, now: F.at(1)))
    }

    @Test func staleIfErrorStatuses() {
        #expect(StaleIfError.errorStatuses == [500, 502, 503, 504])
    }

    @Test func onlyIfCachedWithNothingStoredIsAGatewayTimeout() {
        #expect(Self.decide(nil, request: ["Cache-Control": "only-if-cached"], at: 0) == .gatewayTimeout)
    }

    @Test func onlyIfCachedWithAStaleResponseIsAGatewayTimeout() {
        let stored = Self.stored("max-age=100, stale-while-revalidate=600")
        #expect(Self.decide(stored, request: ["Cache-Control": "only-if-cached"], at: 150) == .gatewayTimeout)
    }

    @Test func onlyIfCachedServesWhatIsUsable() {
        let stored = Self.stored()
        #expect(Self.decide(stored, request: ["Cache-Control": "only-if-cached"], at: 50) == .fresh(stored, age: "50"))
        #expect(
            Self.decide(stored, request: ["Cache-Control": "only-if-cached, max-stale"], at: 150)
                == .stale(stored, age: "150", revalidateInBackground: false))
    }

    @Test func malformedDatesMeanStaleNotACrash() {
        let stored = F.stored(["Date": "not a date", "Expires": "0", "Last-Modified": "never"], date: nil)
        #expect(Self.decide(stored, at: 0) == Self.revalidation(stored))
    }

    @Test func aHeuristicallyFreshResponseIsAHit() {
        // Modified 10,000 s before its Date: fresh for 1,000 s.
        let stored = F.stored(["Last-Modified": F.httpDate(-10_000)])
        #expect(Self.decide(stored, at: 999) == .fresh(stored, age: "999"))
        #expect(Self.decide(stored, at: 1_000) == Self.revalidation(stored))
    }

    @Test func aVaryMismatchIsAMiss() {
        let stored = Self.stored(extra: ["Vary": "Accept-Language"])
        let withLanguage = F.stored(
            ["Cache-Control": "max-age=100", "Vary": "Accept-Language"], requestHeaders: ["Accept-Language": "fr"])
        #expect(Self.decide(stored, request: ["Accept-Language": "fr"], at: 1) == .miss)
        #expect(Self.decide(withLanguage, request: ["Accept-Language": "fr"], at: 1) == .fresh(withLanguage, age: "1"))
    }

    @Test func varyStarIsNeverAHit() {
        let stored = Self.stored(extra: ["Vary": "*"])
        #expect(Self.decide(stored, at: 1) == .miss)
    }

    @Test func theMatchingVariantIsChosen() {
        let french = F.stored(
            ["Cache-Control": "max-age=100", "Vary": "Accept-Language"], requestHeaders: ["Accept-Language": "fr"])
        let german = F.stored(
            ["Cache-Control": "max-age=100", "Vary": "Accept-Language"], requestHeaders: ["Accept-Language": "de"])
        let decision = CacheLookup.decide(
            request: F.request(["Accept-Language": "de"]), candidates: [french, german], mode: .private, now: F.at(1))
        #expect(decision == .fresh(german, age: "1"))
    }

    @Test func ofSeveralMatchesTheMostRecentIsChosen() {
        let older = F.stored(["Cache-Control": "max-age=100"], responseTime: 0, date: 0)
        let newer = F.stored(["Cache-Control": "max-age=100"], requestTime: 10, responseTime: 10, date: 10)
        let decision = CacheLookup.decide(
            request: F.request(), candidates: [newer, older], mode: .private, now: F.at(20))
        #expect(decision == .fresh(newer, age: "10"))
        #expect(CacheLookup.mostRecent([older, newer]) == newer)
        #expect(CacheLookup.mostRecent([]) == nil)
    }
}
