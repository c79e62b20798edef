@testable import Ferry
import Foundation
import Testing

@Suite("Cache conditional requests (RFC 9111 §4.3.1)")
struct CacheConditionalRequestTests {
    typealias F = CacheFixtures
    static let lastModified = "Sat, 05 Nov 1994 08:49:37 GMT"

    static func headers(stored: HTTPHeaders, request: HTTPHeaders = [:]) -> HTTPHeaders {
        ConditionalRequest.headers(for: request, revalidating: F.stored(stored))
    }

    @Test func aStrongETagBecomesIfNoneMatch() {
        let headers = Self.headers(stored: ["ETag": #""abc""#])
        #expect(headers["If-None-Match"] == #""abc""#)
        #expect(headers["If-Modified-Since"] == nil)
    }

    @Test func aWeakETagIsSentWeak() {
        #expect(Self.headers(stored: ["ETag": #"W/"abc""#])["If-None-Match"] == #"W/"abc""#)
    }

    @Test func lastModifiedBecomesIfModifiedSinceAsReceived() {
        let headers = Self.headers(stored: ["Last-Modified": Self.lastModified])
        #expect(headers["If-Modified-Since"] == Self.lastModified)
        #expect(headers["If-None-Match"] == nil)
    }

    @Test func bothValidatorsAreSent() {
        let headers = Self.headers(stored: ["ETag": #""abc""#, "Last-Modified": Self.lastModified])
        #expect(headers["If-None-Match"] == #""abc""#)
        #expect(headers["If-Modified-Since"] == Self.lastModified)
    }

    @Test func anInvalidLastModifiedIsNotSent() {
        #expect(Self.headers(stored: ["Last-Modified": "last week"])["If-Modified-Since"] == nil)
    }

    @Test func withoutValidatorsNothingIsAdded() {
        let request: HTTPHeaders = ["Accept": "text/html"]
        #expect(Self.headers(stored: ["Cache-Control": "max-age=1"], request: request) == request)
    }

    @Test func theRequestsOwnFieldsAreKept() {
        let headers = Self.headers(
            stored: ["ETag": #""abc""#], request: ["Accept": "text/html", "Cache-Control": "no-cache"])
        #expect(headers["Accept"] == "text/html")
        #expect(headers["Cache-Control"] == "no-cache")
        #expect(headers["If-None-Match"] == #""abc""#)
    }

    @Test(arguments: ConditionalRequest.preconditionFields)
    func aRequestWithItsOwnPreconditionIsLeftAlone(field: String) {
        let request: HTTPHeaders = [HTTPHeader(name: field.lowercased(), value: #""mine""#)]
        let headers = Self.headers(stored: ["ETag": #""abc""#, "Last-Modified": Self.lastModified], request: request)
        #expect(headers == request)
    }
}
