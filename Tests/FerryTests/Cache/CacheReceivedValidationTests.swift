@testable import Ferry
import Foundation
import Testing

@Suite("The client's own conditions, answered by the cache (RFC 9111 §4.3.2)")
struct CacheReceivedValidationTests {
    typealias F = CacheFixtures

    static let stored = F.stored([
        "Cache-Control": "max-age=600", "ETag": #""v1""#, "Last-Modified": F.httpDate(-3_600),
        "Content-Type": "text/plain", "Content-Length": "5", "Vary": "Accept", "X-Extra": "kept out",
    ])

    static func notModified(_ conditions: HTTPHeaders, stored: StoredResponse = stored) -> HTTPResponse? {
        ReceivedValidation.notModified(for: F.request(conditions), stored: stored, age: "7")
    }

    /// cache-tests.fyi's `conditional-etag-*-respond*`: weak comparison, any member of the list, `*`.
    @Test(arguments: [
        #""v1""#, #"W/"v1""#, #""a", "v1", "b""#, #""a,b", "v1""#, "*", #""zz", *"#,
    ])
    func aMatchingIfNoneMatchIsA304(ifNoneMatch: String) throws {
        let head = try #require(Self.notModified(["If-None-Match": ifNoneMatch]))
        #expect(head.statusCode == 304)
        #expect(head.headers["ETag"] == #""v1""#, "conditional-304-etag: a 304 carries the ETag")
        #expect(head.headers["Cache-Control"] == "max-age=600")
        #expect(head.headers["Date"] == F.httpDate(0))
        #expect(head.headers["Vary"] == "Accept")
        #expect(head.headers["Age"] == "7")
        for absent in ["Content-Type", "Content-Length", "X-Extra", "Last-Modified"] {
            #expect(!head.headers.contains(absent), "\(absent) is not a 304's")
        }
    }

    @Test(arguments: [#""v2""#, #""v1x""#, #""a,v1""#, ""])
    func anotherTagIsTheStoredResponse(ifNoneMatch: String) {
        #expect(Self.notModified(["If-None-Match": ifNoneMatch]) == nil)
    }

    @Test func ifNoneMatchIsJudgedBeforeIfModifiedSince() {
        // conditional-etag-precedence: the tag does not match, the date would.
        #expect(Self.notModified(["If-None-Match": #""v2""#, "If-Modified-Since": F.httpDate(0)]) == nil)
        #expect(Self.notModified(["If-None-Match": #""v1""#, "If-Modified-Since": F.httpDate(-7_200)]) != nil)
    }

    @Test func ifModifiedSinceAgainstLastModified() throws {
        #expect(Self.notModified(["If-Modified-Since": F.httpDate(-3_600)])?.statusCode == 304)
        #expect(Self.notModified(["If-Modified-Since": F.httpDate(-60)])?.statusCode == 304)
        #expect(Self.notModified(["If-Modified-Since": F.httpDate(-3_601)]) == nil)
        #expect(Self.notModified(["If-Modified-Since": "yesterday"]) == nil)
    }

    @Test func withoutLastModifiedTheDateStandsIn() throws {
        let stored = F.stored(["Cache-Control": "max-age=600"], date: 100)
        let head = try #require(Self.notModified(["If-Modified-Since": F.httpDate(100)], stored: stored))
        #expect(head.headers["Last-Modified"] == nil)
        #expect(Self.notModified(["If-Modified-Since": F.httpDate(99)], stored: stored) == nil)
    }

    @Test func lastModifiedTravelsWhenThereIsNoETag() throws {
        let stored = F.stored(["Cache-Control": "max-age=600", "Last-Modified": F.httpDate(-10)])
        let head = try #require(Self.notModified(["If-Modified-Since": F.httpDate(0)], stored: stored))
        #expect(head.headers["Last-Modified"] == F.httpDate(-10))
    }

    @Test func onlyA200IsJudged() {
        let stored = F.stored(["Cache-Control": "max-age=600", "ETag": #""v1""#], status: 203)
        #expect(Self.notModified(["If-None-Match": #""v1""#], stored: stored) == nil)
    }

    @Test func noConditionNoJudgement() {
        #expect(Self.notModified([:]) == nil)
        #expect(Self.notModified(["If-Match": #""v1""#, "If-Unmodified-Since": F.httpDate(0)]) == nil)
    }

    @Test func anIfNoneMatchListIsReadWithItsQuotes() {
        #expect(
            ReceivedValidation.entityTags(in: #" "a,b" ,W/"c", * , bare "#)
                == [.tag(EntityTag(#""a,b""#)!), .tag(EntityTag(#"W/"c""#)!), .any, .tag(EntityTag("bare")!)])
        #expect(ReceivedValidation.entityTags(in: " , ").isEmpty)
    }

    /// The answer to a conditional request the client made itself: a 304 validates the stored response only when it
    /// names it, and is otherwise the client's answer, not a reason to ask again.
    @Test func a304ToTheClientsOwnConditions() {
        let stored = F.stored(["Cache-Control": "max-age=0", "ETag": #""v1""#])
        let request = F.request(["If-None-Match": #""mine""#])
        func decide(_ headers: HTTPHeaders) -> RevalidationOutcome {
            RevalidationOutcome.decide(
                response: F.response(304, headers), revalidating: stored, request: request, mode: .private,
                requestTime: F.at(9), now: F.at(10))
        }
        #expect(decide([:]) == .useResponse)
        #expect(decide(["ETag": #""mine""#]) == .useResponse)
        guard case .useStored = decide(["ETag": #""v1""#]) else {
            Issue.record("a 304 naming the stored response validates it")
            return
        }
    }
}
