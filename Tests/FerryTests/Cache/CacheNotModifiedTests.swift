@testable import Ferry
import Foundation
import Testing

@Suite("Cache 304 and HEAD freshening (RFC 9111 §3.2, §4.3.3–§4.3.5)")
struct CacheNotModifiedTests {
    typealias F = CacheFixtures

    static func notModified(_ headers: HTTPHeaders) -> HTTPResponse { F.response(304, headers) }

    static func stored(
        etag: String? = nil, lastModified: TimeInterval? = nil, at time: TimeInterval = 0
    )
        -> StoredResponse
    {
        var headers: HTTPHeaders = [:]
        if let etag { headers.add(name: "ETag", value: etag) }
        if let lastModified { headers.add(name: "Last-Modified", value: F.httpDate(lastModified)) }
        return F.stored(headers, requestTime: time, responseTime: time, date: time)
    }

    // MARK: Selection (§4.3.4)

    @Test func aStrongValidatorSelectsEveryStrongMatch() {
        let stored = [Self.stored(etag: #""1""#), Self.stored(etag: #""2""#), Self.stored(etag: #""1""#, at: 5)]
        #expect(NotModifiedUpdate.selection(for: Self.notModified(["ETag": #""1""#]), among: stored) == [0, 2])
    }

    @Test func aStrongValidatorWithoutAMatchSelectsNothing() {
        let stored = [Self.stored(etag: #""2""#), Self.stored(etag: #"W/"1""#), Self.stored(lastModified: -60)]
        #expect(NotModifiedUpdate.selection(for: Self.notModified(["ETag": #""1""#]), among: stored).isEmpty)
    }

    @Test func aWeakValidatorSelectsTheMostRecentWeakMatch() {
        let stored = [
            Self.stored(etag: #""1""#, at: 0), Self.stored(etag: #"W/"1""#, at: 10),
            Self.stored(etag: #"W/"2""#, at: 20),
        ]
        #expect(NotModifiedUpdate.selection(for: Self.notModified(["ETag": #"W/"1""#]), among: stored) == [1])
    }

    @Test func lastModifiedSelectsTheMostRecentWithTheSameDate() {
        let stored = [
            Self.stored(lastModified: -60, at: 0), Self.stored(lastModified: -30, at: 5),
            Self.stored(lastModified: -60, at: 10), Self.stored(lastModified: -60, at: 3),
        ]
        let notModified = Self.notModified(["Last-Modified": F.httpDate(-60)])
        #expect(NotModifiedUpdate.selection(for: notModified, among: stored) == [2])
    }

    @Test func withoutValidatorsTheOnlyStoredResponseWithoutOneIsSelected() {
        let notModified = Self.notModified(["Cache-Control": "max-age=60"])
        #expect(NotModifiedUpdate.selection(for: notModified, among: [Self.stored()]) == [0])
        #expect(NotModifiedUpdate.selection(for: notModified, among: [Self.stored(etag: #""1""#)]).isEmpty)
        #expect(NotModifiedUpdate.selection(for: notModified, among: [Self.stored(), Self.stored(at: 1)]).isEmpty)
        #expect(NotModifiedUpdate.selection(for: notModified, among: []).isEmpty)
    }

    // MARK: Merging (§3.2)

    @Test func aNotModifiedUpdatesTheStoredFields() {
        let stored = F.stored([
            "Content-Length": "10", "ETag": #""1""#, "Cache-Control": "max-age=10", "X-Old": "a",
            "Content-Type": "text/plain",
        ])
        let notModified = Self.notModified([
            "Cache-Control": "max-age=60", "Content-Length": "0", "Date": F.httpDate(500), "Connection": "close",
            "Keep-Alive": "timeout=5", "X-New": "b", "ETag": #""1""#,
        ])
        let updated = NotModifiedUpdate.freshen(
            stored, with: notModified, requestTime: F.at(499), responseTime: F.at(500))
        let headers = updated.response.headers
        #expect(headers["Cache-Control"] == "max-age=60")
        #expect(headers["Content-Length"] == "10")  // §3.2: never updated
        #expect(headers["Date"] == F.httpDate(500))
        #expect(headers["X-Old"] == "a")
        #expect(headers["X-New"] == "b")
        #expect(headers["Content-Type"] == "text/plain")
        #expect(!headers.contains("Connection"))
        #expect(!headers.contains("Keep-Alive"))
        #expect(updated.response.statusCode == 200)
        #expect(updated.requestTime == F.at(499))
        #expect(updated.responseTime == F.at(500))
    }

    @Test func aFreshenedResponseIsFreshAgain() {
        let stored = F.stored(["Cache-Control": "max-age=10", "ETag": #""1""#])
        let notModified = Self.notModified(["Cache-Control": "max-age=60", "Date": F.httpDate(500)])
        let updated = NotModifiedUpdate.freshen(
            stored, with: notModified, requestTime: F.at(500), responseTime: F.at(500))
        let decision = CacheLookup.decide(request: F.request(), candidates: [updated], mode: .private, now: F.at(530))
        #expect(decision == .fresh(updated, age: "30"))
    }

    @Test func repeatedFieldsReplaceEveryStoredLine() {
        let stored = StoredHeaders.updating(
            [
                HTTPHeader(name: "Link", value: "<a>"), HTTPHeader(name: "Link", value: "<b>"),
                HTTPHeader(name: "X", value: "1"),
            ],
            with: [HTTPHeader(name: "link", value: "<c>"), HTTPHeader(name: "Link", value: "<d>")])
        #expect(stored.values(for: "Link") == ["<c>", "<d>"])
        #expect(stored["X"] == "1")
    }

    @Test func fieldsNamedByConnectionAreNotMerged() {
        let updated = StoredHeaders.updating(["X-Hop": "old"], with: ["Connection": "X-Hop", "X-Hop": "new"])
        #expect(updated["X-Hop"] == "old")
        #expect(!updated.contains("Connection"))
    }

    @Test(arguments: ["Content-Length", "Content-Encoding", "Content-Range", "Transfer-Encoding", "Proxy-Authenticate"])
    func fieldsThatDescribeTheStoredBodyOrTheHopAreNotUpdated(name: String) {
        let updated = StoredHeaders.updating(
            [HTTPHeader(name: name, value: "stored")], with: [HTTPHeader(name: name, value: "new")])
        #expect(updated.values(for: name) == ["stored"])
    }

    @Test func storageDropsHopByHopAndProxyFields() {
        let headers: HTTPHeaders = [
            "Connection": "close, X-Hop", "X-Hop": "1", "Keep-Alive": "5", "TE": "trailers", "Upgrade": "h2c",
            "Proxy-Authenticate": "Basic", "Proxy-Authentication-Info": "x", "Proxy-Connection": "keep-alive",
            "Transfer-Encoding": "chunked", "Content-Type": "text/plain", "ETag": #""1""#,
        ]
        let stored = StoredHeaders.forStorage(headers)
        #expect(stored == ["Content-Type": "text/plain", "ETag": #""1""#])
    }

    // MARK: HEAD (§4.3.5)

    static let storedForHead = F.stored([
        "ETag": #""1""#, "Last-Modified": F.httpDate(-60), "Content-Length": "10", "Cache-Control": "max-age=10",
    ])

    @Test func aMatchingHeadResponseUpdatesTheStoredOne() {
        let head = F.response(
            200,
            [
                "ETag": #""1""#, "Last-Modified": F.httpDate(-60), "Content-Length": "10",
                "Cache-Control": "max-age=99",
            ])
        let decision = HeadFreshening.decide(
            Self.storedForHead, head: head, requestTime: F.at(5), responseTime: F.at(6))
        guard case .update(let updated) = decision else {
            Issue.record("expected an update, got \(decision)")
            return
        }
        #expect(updated.response.headers["Cache-Control"] == "max-age=99")
        #expect(updated.response.headers["Content-Length"] == "10")
        #expect(updated.responseTime == F.at(6))
    }

    @Test func aHeadResponseWithoutValidatorsUpdates() {
        let head = F.response(200, ["Cache-Control": "max-age=99"])
        let decision = HeadFreshening.decide(
            Self.storedForHead, head: head, requestTime: F.at(5), responseTime: F.at(6))
        #expect(decision != .invalidate && decision != .unchanged)
    }

    @Test(
        arguments: [
            ["ETag": #""2""#], ["ETag": #"W/"1""#], ["Last-Modified": F.httpDate(-30)], ["Content-Length": "11"],
        ] as [HTTPHeaders])
    func aDifferentValidatorOrLengthInvalidates(headers: HTTPHeaders) {
        let head = F.response(200, headers)
        #expect(
            HeadFreshening.decide(Self.storedForHead, head: head, requestTime: F.at(5), responseTime: F.at(6))
                == .invalidate)
    }

    @Test func aValidatorTheStoredResponseLacksInvalidates() {
        let stored = F.stored(["Content-Length": "10"])
        let head = F.response(200, ["ETag": #""1""#, "Content-Length": "10"])
        #expect(HeadFreshening.decide(stored, head: head, requestTime: F.at(5), responseTime: F.at(6)) == .invalidate)
    }

    @Test(arguments: [404, 304, 500])
    func aHeadResponseOtherThan200ChangesNothing(status: Int) {
        let head = F.response(status, ["ETag": #""2""#])
        #expect(
            HeadFreshening.decide(Self.storedForHead, head: head, requestTime: F.at(5), responseTime: F.at(6))
                == .unchanged)
    }
}
