@testable import Ferry
import Foundation
import Testing

@Suite("Cache revalidation outcome (RFC 9111 §4.3.3)")
struct CacheRevalidationOutcomeTests {
    typealias F = CacheFixtures

    /// Fresh for 100 s from t0, usable for 60 s more on error.
    static let stored = F.stored(["Cache-Control": "max-age=100, stale-if-error=60", "ETag": #""1""#])

    static func decide(
        _ response: HTTPResponse?, at now: TimeInterval, request: HTTPHeaders = [:]
    )
        -> RevalidationOutcome
    {
        RevalidationOutcome.decide(
            response: response, revalidating: stored, request: F.request(request), mode: .private,
            requestTime: F.at(now - 1), now: F.at(now))
    }

    @Test func aMatching304FreshensTheStoredResponse() {
        let notModified = F.response(304, ["ETag": #""1""#, "Cache-Control": "max-age=300", "Date": F.httpDate(200)])
        let outcome = Self.decide(notModified, at: 200)
        let expected = NotModifiedUpdate.freshen(
            Self.stored, with: notModified, requestTime: F.at(199), responseTime: F.at(200))
        #expect(outcome == .useStored(expected))
        #expect(expected.response.headers["Cache-Control"] == "max-age=300")
    }

    @Test func a304ForAnotherRepresentationIsRepeatedWithoutConditions() {
        #expect(Self.decide(F.response(304, ["ETag": #""2""#]), at: 200) == .repeatUnconditionally)
    }

    /// The 304 answers the cache's own conditions, made from this response's validators: without a validator of its
    /// own it names no other representation (cache-tests.fyi's `cc-resp-no-cache-revalidate` and others; a second,
    /// unconditional request was sent before).
    @Test func a304WithoutAValidatorValidatesTheStoredResponse() {
        let notModified = F.response(304, ["Cache-Control": "max-age=300", "Date": F.httpDate(200)])
        let expected = NotModifiedUpdate.freshen(
            Self.stored, with: notModified, requestTime: F.at(199), responseTime: F.at(200))
        #expect(Self.decide(notModified, at: 200) == .useStored(expected))
        #expect(expected.response.headers["ETag"] == #""1""#)
    }

    @Test func a304WithAnotherLastModifiedIsRepeatedWithoutConditions() {
        let stored = F.stored(["Cache-Control": "max-age=100", "Last-Modified": F.httpDate(-100)])
        let notModified = F.response(304, ["Last-Modified": F.httpDate(-50)])
        let outcome = RevalidationOutcome.decide(
            response: notModified, revalidating: stored, request: F.request([:]), mode: .private,
            requestTime: F.at(199), now: F.at(200))
        #expect(outcome == .repeatUnconditionally)
    }

    @Test(arguments: [200, 404, 501])
    func aFullResponseIsUsed(status: Int) {
        #expect(Self.decide(F.response(status), at: 150) == .useResponse)
    }

    @Test(arguments: [500, 502, 503, 504])
    func anErrorWithinStaleIfErrorServesTheStoredResponse(status: Int) {
        #expect(Self.decide(F.response(status), at: 160) == .useStoredOnError)
        #expect(Self.decide(F.response(status), at: 161) == .useResponse)
    }

    @Test func anUnreachableOrigin() {
        #expect(Self.decide(nil, at: 160) == .useStoredOnError)
        #expect(Self.decide(nil, at: 161) == .fail)
    }
}
