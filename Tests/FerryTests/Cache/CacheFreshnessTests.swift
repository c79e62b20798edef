@testable import Ferry
import Foundation
import Testing

@Suite("Cache freshness lifetime (RFC 9111 §4.2.1, §4.2.2)")
struct CacheFreshnessTests {
    typealias F = CacheFixtures

    static func lifetime(
        status: Int = 200, _ headers: HTTPHeaders, mode: CacheMode = .private, responseTime: TimeInterval = 0,
        date: TimeInterval? = 0
    ) -> FreshnessLifetime {
        F.stored(headers, status: status, responseTime: responseTime, date: date).freshnessLifetime(mode: mode)
    }

    @Test func maxAge() {
        #expect(Self.lifetime(["Cache-Control": "max-age=60"]) == .init(seconds: 60, source: .maxAge))
    }

    @Test func sMaxAgeWinsInASharedCacheOnly() {
        let headers: HTTPHeaders = ["Cache-Control": "max-age=60, s-maxage=30"]
        #expect(Self.lifetime(headers, mode: .shared) == .init(seconds: 30, source: .sharedMaxAge))
        #expect(Self.lifetime(headers, mode: .private) == .init(seconds: 60, source: .maxAge))
    }

    @Test func maxAgeWinsOverExpires() {
        // §5.3: a recipient ignores Expires when max-age is present.
        let headers: HTTPHeaders = ["Cache-Control": "max-age=10", "Expires": F.httpDate(3600)]
        #expect(Self.lifetime(headers) == .init(seconds: 10, source: .maxAge))
    }

    @Test func sMaxAgeWinsOverExpiresInASharedCache() {
        let headers: HTTPHeaders = ["Cache-Control": "s-maxage=10", "Expires": F.httpDate(3600)]
        #expect(Self.lifetime(headers, mode: .shared) == .init(seconds: 10, source: .sharedMaxAge))
        #expect(Self.lifetime(headers, mode: .private) == .init(seconds: 3600, source: .expires))
    }

    @Test func expiresMinusDate() {
        let headers: HTTPHeaders = ["Date": F.httpDate(100), "Expires": F.httpDate(3700)]
        #expect(Self.lifetime(headers) == .init(seconds: 3600, source: .expires))
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 09:49:37 GMT", "Sunday, 06-Nov-94 09:49:37 GMT", "Sun Nov  6 09:49:37 1994",
        // Names in any case (RFC 9111 §4.2; cache-tests.fyi's `freshness-expires-wrong-case-*`).
        "SUN, 06 NOV 1994 09:49:37 gmt", "sunday, 06-nov-94 09:49:37 Gmt", "sun nov  6 09:49:37 1994",
    ])
    func expiresInEveryDateForm(expires: String) {
        // t0 is 08:49:37; each form says an hour later.
        #expect(Self.lifetime(["Expires": expires]) == .init(seconds: 3600, source: .expires))
    }

    @Test func expiresWithoutDateCountsFromTheResponseTime() {
        // RFC 9110 §6.6.1: no Date, so the time received stands in for it.
        #expect(Self.lifetime(["Expires": F.httpDate(3600)], responseTime: 100, date: nil).seconds == 3500)
    }

    /// The last five are cache-tests.fyi's `freshness-expires-invalid-*`: near misses of the grammar.
    @Test(arguments: [
        "0", "-1", "never", "", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 CET",
        "Sun 06 Nov 1994 09:49:37 GMT", "Sun, 06  Nov  1994 09:49:37 GMT", "Sun, 06 Nov 1994 9:49:37 GMT",
        "Sun, 06-Nov-1994 09:49:37 GMT", "Sun, 06 Nov 1994 09.49.37 GMT",
    ])
    func anInvalidExpiresIsAlreadyExpired(expires: String) {
        #expect(
            Self.lifetime(["Expires": expires, "Last-Modified": F.httpDate(-864_000)])
                == .init(seconds: 0, source: .expires))
    }

    @Test func anExpiresBeforeDateIsZeroNotNegative() {
        #expect(Self.lifetime(["Expires": F.httpDate(-60)]) == .init(seconds: 0, source: .expires))
    }

    @Test func severalExpiresThatDisagreeAreStale() {
        let headers: HTTPHeaders = [
            HTTPHeader(name: "Expires", value: F.httpDate(60)), HTTPHeader(name: "Expires", value: F.httpDate(120)),
        ]
        #expect(Self.lifetime(headers) == .init(seconds: 0, source: .expires))
    }

    @Test func severalIdenticalExpiresAreRead() {
        let headers: HTTPHeaders = [
            HTTPHeader(name: "Expires", value: F.httpDate(60)), HTTPHeader(name: "Expires", value: F.httpDate(60)),
        ]
        #expect(Self.lifetime(headers) == .init(seconds: 60, source: .expires))
    }

    @Test(arguments: [
        (-432_000.0, 43_200.0),  // five days since modified: 10%, half a day
        (-10_000, 1_000),
        (-864_000, 86_400),  // ten days: exactly the cap
        (-8_640_000, 86_400),  // a hundred days: capped at one day
        (0, 0),  // modified at Date
        (60, 0),  // modified after Date: no heuristic
    ])
    func heuristicIsTenPercentOfTheTimeSinceModifiedCappedAtADay(lastModified: TimeInterval, expected: TimeInterval) {
        #expect(
            Self.lifetime(["Last-Modified": F.httpDate(lastModified)]) == .init(seconds: expected, source: .heuristic))
    }

    @Test func heuristicWithoutLastModifiedIsZero() {
        #expect(Self.lifetime([:]) == .init(seconds: 0, source: .heuristic))
    }

    @Test func heuristicWithAMalformedLastModifiedIsZero() {
        #expect(Self.lifetime(["Last-Modified": "yesterday"]) == .init(seconds: 0, source: .heuristic))
    }

    @Test func heuristicCountsFromTheResponseTimeWithoutDate() {
        let lifetime = Self.lifetime(["Last-Modified": F.httpDate(-10_000)], responseTime: 0, date: nil)
        #expect(lifetime == .init(seconds: 1_000, source: .heuristic))
    }

    @Test func aMalformedDateFallsBackToTheResponseTime() {
        let stored = F.stored(["Date": "garbage", "Expires": F.httpDate(3600)], responseTime: 600)
        #expect(stored.dateValue == F.at(600))
        #expect(stored.freshnessLifetime(mode: .private).seconds == 3000)
    }

    @Test func noHeuristicWhenExpirationIsExplicit() {
        let headers: HTTPHeaders = ["Cache-Control": "max-age=0", "Last-Modified": F.httpDate(-864_000)]
        #expect(Self.lifetime(headers) == .init(seconds: 0, source: .maxAge))
    }

    @Test func noHeuristicForAStatusThatIsNotCacheableByDefault() {
        #expect(Self.lifetime(status: 302, ["Last-Modified": F.httpDate(-10_000)]) == .init(seconds: 0, source: .none))
    }

    @Test func publicAllowsAHeuristic() {
        let headers: HTTPHeaders = ["Cache-Control": "public", "Last-Modified": F.httpDate(-10_000)]
        #expect(Self.lifetime(status: 302, headers) == .init(seconds: 1_000, source: .heuristic))
    }

    @Test func privateAllowsAHeuristicInAPrivateCacheOnly() {
        let headers: HTTPHeaders = ["Cache-Control": "private", "Last-Modified": F.httpDate(-10_000)]
        #expect(Self.lifetime(status: 302, headers, mode: .private).source == .heuristic)
        #expect(Self.lifetime(status: 302, headers, mode: .shared).source == .none)
    }

    @Test func anInvalidMaxAgeIsStaleAndBeatsExpires() {
        let headers: HTTPHeaders = ["Cache-Control": "max-age=soon", "Expires": F.httpDate(3600)]
        #expect(Self.lifetime(headers) == .init(seconds: 0, source: .maxAge))
    }

    @Test func isExplicit() {
        #expect(Self.lifetime(["Cache-Control": "max-age=1"]).isExplicit)
        #expect(Self.lifetime(["Expires": "0"]).isExplicit)
        #expect(!Self.lifetime([:]).isExplicit)
    }
}
