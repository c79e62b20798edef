@testable import Ferry
import Foundation
import Testing

@Suite("Cache Vary secondary key (RFC 9111 §4.1)")
struct CacheVaryTests {
    typealias F = CacheFixtures

    static func matches(vary: [String], stored: HTTPHeaders, new: HTTPHeaders) -> Bool {
        let headers = HTTPHeaders(vary.map { HTTPHeader(name: "Vary", value: $0) })
        return VaryKey.matches(F.stored(headers, requestHeaders: stored), requestHeaders: new)
    }

    @Test func withoutVaryAnyRequestMatches() {
        #expect(Self.matches(vary: [], stored: ["Accept": "a"], new: ["Accept": "b"]))
    }

    @Test func aNominatedFieldMustBeEqual() {
        #expect(
            Self.matches(
                vary: ["Accept-Encoding"], stored: ["Accept-Encoding": "gzip"], new: ["Accept-Encoding": "gzip"]))
        #expect(
            !Self.matches(
                vary: ["Accept-Encoding"], stored: ["Accept-Encoding": "gzip"], new: ["Accept-Encoding": "br"]))
    }

    @Test func anUnnominatedFieldDoesNotMatter() {
        #expect(Self.matches(vary: ["Accept"], stored: ["Accept": "a", "X": "1"], new: ["Accept": "a", "X": "2"]))
    }

    @Test func fieldNamesAreCaseInsensitive() {
        #expect(
            Self.matches(
                vary: ["accept-ENCODING"], stored: ["Accept-Encoding": "gzip"], new: ["ACCEPT-ENCODING": "gzip"]))
    }

    @Test(arguments: ["gzip,br", "gzip , br", " gzip,\tbr "])
    func whitespaceAroundCommasIsIgnored(value: String) {
        #expect(
            Self.matches(
                vary: ["Accept-Encoding"], stored: ["Accept-Encoding": "gzip, br"], new: ["Accept-Encoding": value]))
    }

    @Test func linesAreCombined() {
        let stored: HTTPHeaders = [
            HTTPHeader(name: "Accept-Encoding", value: "gzip"), HTTPHeader(name: "Accept-Encoding", value: "br"),
        ]
        #expect(Self.matches(vary: ["Accept-Encoding"], stored: stored, new: ["Accept-Encoding": "gzip,br"]))
        #expect(!Self.matches(vary: ["Accept-Encoding"], stored: stored, new: ["Accept-Encoding": "br, gzip"]))
    }

    @Test func absentFromBothMatches() {
        #expect(Self.matches(vary: ["Accept-Language"], stored: [:], new: [:]))
    }

    @Test func absentFromOneDoesNotMatch() {
        #expect(!Self.matches(vary: ["Accept-Language"], stored: ["Accept-Language": "fr"], new: [:]))
        #expect(!Self.matches(vary: ["Accept-Language"], stored: [:], new: ["Accept-Language": "fr"]))
        #expect(!Self.matches(vary: ["Accept-Language"], stored: [:], new: ["Accept-Language": ""]))
    }

    @Test func valuesAreCaseSensitive() {
        #expect(
            !Self.matches(
                vary: ["Accept-Encoding"], stored: ["Accept-Encoding": "gzip"], new: ["Accept-Encoding": "GZIP"]))
    }

    @Test func everyVaryLineCounts() {
        let stored: HTTPHeaders = ["Accept": "a", "Accept-Language": "fr"]
        #expect(Self.matches(vary: ["Accept", "Accept-Language"], stored: stored, new: stored))
        #expect(
            !Self.matches(
                vary: ["Accept", "Accept-Language"], stored: stored, new: ["Accept": "a", "Accept-Language": "de"]))
        #expect(
            !Self.matches(
                vary: ["Accept, Accept-Language"], stored: stored, new: ["Accept": "b", "Accept-Language": "fr"]))
    }

    @Test(arguments: ["*", "Accept, *", "*, Accept"])
    func varyStarNeverMatches(vary: String) {
        #expect(!Self.matches(vary: [vary], stored: [:], new: [:]))
    }

    @Test func theKeyIsNormalised() {
        let key = VaryKey(
            responseHeaders: ["Vary": " Accept-Encoding ,ACCEPT"],
            requestHeaders: ["accept-encoding": "gzip ,  br", "X": "y"])
        #expect(key == .fields(["accept-encoding": "gzip, br", "accept": String?.none]))
    }

    @Test func nominatedFields() {
        #expect(VaryKey.nominatedFields(["Vary": "Accept, accept , ,Origin"]) == ["accept", "origin"])
        #expect(VaryKey.nominatedFields([:]).isEmpty)
    }

    @Test(arguments: [
        "gzip", "gzip, deflate", "gzip,deflate", "gzip ,deflate", "gzip,  deflate", " gzip", "gzip ", "gzip,", ",gzip",
        "a, , b", "a,\tb", "a b, c d", "", "a, b, c", "a,, b", "a ,b", "\ta",
    ])
    func aLineCalledNormalIsItsOwnNormalForm(line: String) {
        if VaryKey.isNormalised(line) {
            #expect(VaryKey.normalised([line]) == line)
        }
        if ["gzip", "gzip, deflate", "a b, c d", "a, b, c"].contains(line) {
            #expect(VaryKey.isNormalised(line), "the common forms take the short path")
        }
    }
}
