@testable import Ferry
import Foundation
import Testing

@Suite("Cache storability (RFC 9111 §3)")
struct CacheStorabilityTests {
    typealias F = CacheFixtures

    static func decide(
        status: Int = 200, _ headers: HTTPHeaders = [:], request: HTTPHeaders = [:], method: HTTPMethod = .get,
        mode: CacheMode = .private
    ) -> Storability {
        Storability.decide(
            request: F.request(request, method: method), response: F.response(status, headers), mode: mode)
    }

    @Test(arguments: [CacheMode.private, .shared])
    func aPlain200IsStorable(mode: CacheMode) {
        #expect(Self.decide(mode: mode) == .storable)
    }

    @Test(arguments: [HTTPMethod.head, .post, .put, .delete, .options, "PROPFIND"])
    func onlyGetIsStored(method: HTTPMethod) {
        #expect(Self.decide(["Cache-Control": "max-age=60"], method: method) == .notStorable(.method))
    }

    @Test func aResponseToARangeRequestIsNotStored() {
        #expect(
            Self.decide(["Cache-Control": "max-age=60"], request: ["Range": "bytes=0-99"])
                == .notStorable(.rangeRequest))
    }

    @Test func partialContentIsNotStored() {
        #expect(Self.decide(status: 206, ["Cache-Control": "max-age=60"]) == .notStorable(.partialContent))
    }

    @Test func notModifiedIsNotStored() {
        #expect(Self.decide(status: 304, ["Cache-Control": "max-age=60"]) == .notStorable(.notModified))
    }

    @Test(arguments: [100, 103])
    func anInterimStatusIsNotStored(status: Int) {
        #expect(Self.decide(status: status) == .notStorable(.statusNotFinal))
    }

    @Test func responseNoStore() {
        #expect(Self.decide(["Cache-Control": "max-age=60, no-store"]) == .notStorable(.responseNoStore))
    }

    @Test func requestNoStore() {
        #expect(
            Self.decide(["Cache-Control": "max-age=60"], request: ["Cache-Control": "no-store"])
                == .notStorable(.requestNoStore))
    }

    @Test func mustUnderstandOverridesNoStoreForAKnownStatus() {
        // §5.2.2.3
        #expect(Self.decide(["Cache-Control": "must-understand, no-store, max-age=60"]) == .storable)
    }

    @Test func mustUnderstandRefusesAnUnknownStatus() {
        #expect(
            Self.decide(status: 299, ["Cache-Control": "must-understand, max-age=60"])
                == .notStorable(.statusNotUnderstood))
    }

    @Test func anUnknownStatusWithMaxAgeIsStorable() {
        #expect(Self.decide(status: 299, ["Cache-Control": "max-age=60"]) == .storable)
    }

    @Test(arguments: ["private", #"private="Set-Cookie""#, "PRIVATE, max-age=60"])
    func privateIsNotStoredByASharedCache(value: String) {
        #expect(Self.decide(["Cache-Control": value], mode: .shared) == .notStorable(.privateInSharedCache))
        #expect(Self.decide(["Cache-Control": value], mode: .private) == .storable)
    }

    @Test func authorizationKeepsASharedCacheFromStoring() {
        let request: HTTPHeaders = ["Authorization": "Bearer x"]
        #expect(
            Self.decide(["Cache-Control": "max-age=60"], request: request, mode: .shared)
                == .notStorable(.authorizationInSharedCache))
        #expect(Self.decide(["Cache-Control": "max-age=60"], request: request, mode: .private) == .storable)
    }

    @Test(arguments: ["public", "must-revalidate", "s-maxage=10", "max-age=60, Public"])
    func aDirectiveLetsASharedCacheStoreAnAuthorizedResponse(value: String) {
        let request: HTTPHeaders = ["Authorization": "Bearer x"]
        #expect(Self.decide(["Cache-Control": value], request: request, mode: .shared) == .storable)
    }

    @Test(arguments: ["*", "Accept, *", " * "])
    func varyStarIsNotStored(value: String) {
        #expect(Self.decide(["Cache-Control": "max-age=60", "Vary": value]) == .notStorable(.varyAll))
    }

    @Test(arguments: FreshnessLifetime.heuristicallyCacheableStatuses.filter { $0 != 206 }.sorted())
    func aHeuristicallyCacheableStatusIsStorableWithoutDirectives(status: Int) {
        #expect(Self.decide(status: status) == .storable)
    }

    @Test(arguments: [201, 202, 302, 303, 307, 400, 401, 403, 409, 500, 502, 503])
    func otherStatusesNeedExplicitFreshness(status: Int) {
        #expect(Self.decide(status: status) == .notStorable(.notCacheable))
        #expect(Self.decide(status: status, ["Cache-Control": "max-age=60"]) == .storable)
        #expect(Self.decide(status: status, ["Expires": F.httpDate(60)]) == .storable)
        #expect(Self.decide(status: status, ["Cache-Control": "public"]) == .storable)
    }

    @Test func anInvalidExpiresStillMakesItStorable() {
        // §3 asks only for an Expires field; §5.3 then makes an invalid one "already expired".
        #expect(Self.decide(status: 302, ["Expires": "0"]) == .storable)
    }

    @Test func sMaxAgeCountsOnlyInASharedCache() {
        #expect(Self.decide(status: 302, ["Cache-Control": "s-maxage=60"], mode: .shared) == .storable)
        #expect(
            Self.decide(status: 302, ["Cache-Control": "s-maxage=60"], mode: .private) == .notStorable(.notCacheable))
    }

    @Test func privateMakesItStorableInAPrivateCache() {
        #expect(Self.decide(status: 302, ["Cache-Control": "private"], mode: .private) == .storable)
    }
}
