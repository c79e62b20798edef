@testable import Ferry
import Foundation
import Testing

@Suite("Cache-Control parsing (RFC 9111 §5.2)")
struct CacheControlParsingTests {
    @Test func readsDeltaSecondsAndFlags() {
        let directives = CacheControl(parsing: "max-age=60, no-store, must-revalidate, public, immutable")
        #expect(directives.maxAge == 60)
        #expect(directives.noStore)
        #expect(directives.mustRevalidate)
        #expect(directives.isPublic)
        #expect(directives.isImmutable)
        #expect(!directives.noCache)
        #expect(!directives.isPrivate)
    }

    @Test func namesAreCaseInsensitive() {
        let directives = CacheControl(parsing: "MAX-AGE=60, No-Store, S-MaxAge=5, Only-If-Cached")
        #expect(directives.maxAge == 60)
        #expect(directives.noStore)
        #expect(directives.sharedMaxAge == 5)
        #expect(directives.onlyIfCached)
    }

    @Test func quotedDeltaSecondsAreAccepted() {
        // §5.2: recipients accept the quoted form even where the token form is required.
        #expect(CacheControl(parsing: #"max-age="60""#).maxAge == 60)
        #expect(CacheControl(parsing: #"s-maxage = "7""#).sharedMaxAge == 7)
    }

    @Test func noCacheWithFieldNames() {
        let directives = CacheControl(parsing: #"no-cache="Set-Cookie, X-Trace", max-age=5"#)
        #expect(directives.noCache)
        #expect(directives.noCacheFieldNames == ["set-cookie", "x-trace"])
        #expect(directives.maxAge == 5)
    }

    @Test func unqualifiedNoCacheHasNoFieldNames() {
        let directives = CacheControl(parsing: "no-cache")
        #expect(directives.noCache)
        #expect(directives.noCacheFieldNames.isEmpty)
    }

    @Test func privateWithFieldNames() {
        let directives = CacheControl(parsing: #"private="Authorization-Info", max-age=10"#)
        #expect(directives.isPrivate)
        #expect(directives.privateFieldNames == ["authorization-info"])
        #expect(directives.maxAge == 10)
    }

    @Test func unquotedFieldNameIsTolerated() {
        let directives = CacheControl(parsing: "private=X-Secret")
        #expect(directives.privateFieldNames == ["x-secret"])
    }

    @Test func repeatedIdenticalDirectiveIsKept() {
        #expect(CacheControl(parsing: "max-age=60, max-age=60").maxAge == 60)
    }

    @Test func repeatedConflictingMaxAgeMeansStale() {
        // §4.2.1: "either the first occurrence should be used or the response should be considered stale".
        #expect(CacheControl(parsing: "max-age=60, max-age=120").maxAge == 0)
        #expect(CacheControl(parsing: "s-maxage=60, s-maxage=1").sharedMaxAge == 0)
    }

    @Test(arguments: ["max-age=abc", "max-age=", "max-age", "max-age=-1", "max-age=1.5", "max-age=6 0", "max-age=0x10"])
    func invalidMaxAgeMeansStale(value: String) {
        #expect(CacheControl(parsing: value).maxAge == 0)
    }

    @Test(arguments: [
        ("max-age=2147483647", 2_147_483_647), ("max-age=2147483648", 2_147_483_648),
        ("max-age=2147483649", 2_147_483_648), ("max-age=99999999999999999999999999", 2_147_483_648),
        ("max-age=007", 7),
    ])
    func overflowingDeltaSecondsSaturate(value: String, expected: Int) {
        // §1.2.2: a delta-seconds greater than the largest integer it can represent reads as 2147483648.
        #expect(CacheControl(parsing: value).maxAge == expected)
    }

    @Test func invalidRequestLeewayIsIgnored() {
        let directives = CacheControl(
            parsing: "min-fresh=soon, stale-while-revalidate=x, stale-if-error=, max-stale=-3")
        #expect(directives.minFresh == nil)
        #expect(directives.staleWhileRevalidate == nil)
        #expect(directives.staleIfError == nil)
        #expect(directives.maxStale == nil)
    }

    @Test(arguments: [
        ("max-stale", CacheControl.MaxStale.any), ("max-stale=30", .seconds(30)), (#"max-stale="30""#, .seconds(30)),
        ("MAX-STALE, max-stale", .any),
    ])
    func maxStale(value: String, expected: CacheControl.MaxStale) {
        #expect(CacheControl(parsing: value).maxStale == expected)
    }

    @Test func maxStaleWithAndWithoutArgumentIsInvalid() {
        #expect(CacheControl(parsing: "max-stale, max-stale=5").maxStale == nil)
    }

    @Test func severalLinesReadAsOneList() {
        let headers: HTTPHeaders = [
            HTTPHeader(name: "Cache-Control", value: "max-age=60"),
            HTTPHeader(name: "cache-control", value: "must-revalidate"),
        ]
        let directives = CacheControl(responseHeaders: headers)
        #expect(directives.maxAge == 60)
        #expect(directives.mustRevalidate)
    }

    @Test func maxAgeOnSeveralLinesThatDisagreeMeansStale() {
        let headers: HTTPHeaders = [
            HTTPHeader(name: "Cache-Control", value: "max-age=60"),
            HTTPHeader(name: "Cache-Control", value: "max-age=3600"),
        ]
        #expect(CacheControl(responseHeaders: headers).maxAge == 0)
    }

    @Test func emptyElementsAndWhitespaceAreSkipped() {
        let directives = CacheControl(parsing: " , ,\tmax-age = 5 ,, no-store ,")
        #expect(directives.maxAge == 5)
        #expect(directives.noStore)
    }

    @Test func aCommaInsideQuotesDoesNotSplit() {
        let directives = CacheControlDirective.list(in: #"no-cache="a, b", public"#)
        #expect(directives == [.init(name: "no-cache", argument: "a, b"), .init(name: "public", argument: nil)])
    }

    @Test func quotedPairsAreUnescaped() {
        let directives = CacheControlDirective.list(in: #"ext="a\"b\\c", max-age=1"#)
        #expect(directives == [.init(name: "ext", argument: #"a"b\c"#), .init(name: "max-age", argument: "1")])
    }

    @Test func anUnterminatedQuoteRunsToTheEnd() {
        let directives = CacheControl(parsing: #"max-age=5, no-cache="a, b"#)
        #expect(directives.maxAge == 5)
        #expect(directives.noCacheFieldNames == ["a", "b"])
    }

    @Test func unknownExtensionsAreIgnored() {
        let directives = CacheControl(parsing: "community=\"UCI\", foo, max-age=9")
        #expect(directives.maxAge == 9)
        #expect(
            directives
                == {
                    var expected = CacheControl(); expected.maxAge = 9; return expected
                }())
    }

    @Test func anEmptyFieldHasNoDirective() {
        #expect(CacheControl(parsing: "") == CacheControl())
        #expect(CacheControl(responseHeaders: [:]) == CacheControl())
    }

    @Test func staleExtensions() {
        let directives = CacheControl(parsing: "stale-while-revalidate=30, stale-if-error=600, must-understand")
        #expect(directives.staleWhileRevalidate == 30)
        #expect(directives.staleIfError == 600)
        #expect(directives.mustUnderstand)
    }

    @Test func pragmaNoCacheIsARequestNoCacheWithoutCacheControl() {
        #expect(CacheControl(requestHeaders: ["Pragma": "no-cache"]).noCache)
        #expect(CacheControl(requestHeaders: ["pragma": "No-Cache, x-ext=1"]).noCache)
        #expect(!CacheControl(requestHeaders: ["Pragma": "x-other"]).noCache)
    }

    @Test func pragmaIsIgnoredWhenCacheControlIsPresent() {
        // §5.4
        let directives = CacheControl(requestHeaders: ["Pragma": "no-cache", "Cache-Control": "max-age=5"])
        #expect(!directives.noCache)
        #expect(directives.maxAge == 5)
    }

    @Test func pragmaIsNotReadInAResponse() {
        #expect(!CacheControl(responseHeaders: ["Pragma": "no-cache"]).noCache)
    }
}
