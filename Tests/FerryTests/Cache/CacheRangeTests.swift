@testable import Ferry
import Foundation
import Testing

@Suite("One range of a stored response (RFC 9110 §14, as a cache answers it)")
struct CacheRangeTests {
    typealias F = CacheFixtures

    static let stored = F.stored([
        "Cache-Control": "max-age=600", "ETag": #""v1""#, "Last-Modified": F.httpDate(-60), "Content-Length": "10",
    ])

    static func decide(_ headers: HTTPHeaders, stored: HTTPResponse = stored.response) -> StoredRange.Decision {
        StoredRange.decide(F.request(headers), stored: stored, length: 10)
    }

    /// cache-tests.fyi's `partial-store-complete-reuse-partial*`.
    @Test(arguments: [
        ("bytes=0-1", 0...1), ("bytes=1-", 1...9), ("bytes=-1", 9...9), ("bytes=-50", 0...9), ("bytes=5-500", 5...9),
        ("BYTES=2-3", 2...3), (" bytes= 4 - 4 ", 4...4),
    ])
    func oneSatisfiableRangeIsAPart(range: String, expected: ClosedRange<Int>) {
        #expect(Self.decide(["Range": range]) == .part(expected))
    }

    @Test(arguments: [
        "bytes=10-", "bytes=-0", "bytes=3-2", "bytes=0-1,3-4", "items=0-1", "bytes=a-b", "bytes=", "bytes=--1",
        "bytes=+1-2",
    ])
    func anythingElseGoesToTheServer(range: String) {
        #expect(Self.decide(["Range": range]) == .send)
    }

    @Test func withoutRangeTheWholeResponse() {
        #expect(Self.decide([:]) == .whole)
    }

    @Test func onlyAStored200IsCut() {
        let partial = F.response(203, ["Cache-Control": "max-age=600"])
        #expect(Self.decide(["Range": "bytes=0-1"], stored: partial) == .send)
    }

    /// RFC 9110 §13.1.5: a strong tag equal to the stored one, or the stored `Last-Modified`; otherwise the whole.
    @Test func ifRangeAgainstTheStoredValidators() {
        #expect(Self.decide(["Range": "bytes=0-1", "If-Range": #""v1""#]) == .part(0...1))
        #expect(Self.decide(["Range": "bytes=0-1", "If-Range": F.httpDate(-60)]) == .part(0...1))
        #expect(Self.decide(["Range": "bytes=0-1", "If-Range": #""v2""#]) == .whole)
        #expect(Self.decide(["Range": "bytes=0-1", "If-Range": #"W/"v1""#]) == .whole)
        #expect(Self.decide(["Range": "bytes=0-1", "If-Range": F.httpDate(-59)]) == .whole)
    }

    @Test func thePartsHead() {
        let head = StoredRange.head(of: Self.stored.response, part: 2...5, length: 10)
        #expect(head.statusCode == 206)
        #expect(head.headers["Content-Range"] == "bytes 2-5/10")
        #expect(head.headers["Content-Length"] == "4")
        #expect(head.headers["ETag"] == #""v1""#)
    }
}
