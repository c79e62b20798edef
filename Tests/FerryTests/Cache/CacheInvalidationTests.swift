@testable import Ferry
import Foundation
import Testing

@Suite("Cache invalidation (RFC 9111 §4.4)")
struct CacheInvalidationTests {
    typealias F = CacheFixtures

    static func invalidated(_ method: HTTPMethod, status: Int = 200, _ headers: HTTPHeaders = [:]) -> [String] {
        CacheInvalidation.invalidatedURIs(method: method, url: F.url, response: F.response(status, headers))
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete, "PROPFIND", "purge"])
    func anUnsafeMethodInvalidatesTheTarget(method: HTTPMethod) {
        #expect(Self.invalidated(method) == ["https://example.com/a"])
    }

    @Test(arguments: [HTTPMethod.get, .head, .options, .trace])
    func aSafeMethodInvalidatesNothing(method: HTTPMethod) {
        #expect(Self.invalidated(method, ["Location": "/b"]).isEmpty)
    }

    @Test(arguments: [200, 201, 204, 299, 301, 303, 399])
    func aNonErrorStatusInvalidates(status: Int) {
        #expect(Self.invalidated(.post, status: status) == ["https://example.com/a"])
    }

    @Test(arguments: [100, 400, 404, 409, 500, 503])
    func anErrorStatusInvalidatesNothing(status: Int) {
        #expect(Self.invalidated(.post, status: status).isEmpty)
    }

    @Test func sameOriginLocationAndContentLocationAreInvalidated() {
        let uris = Self.invalidated(
            .post, status: 201, ["Location": "/items/7", "Content-Location": "https://EXAMPLE.com:443/items/7?v=1#x"])
        #expect(uris == ["https://example.com/a", "https://example.com/items/7", "https://example.com/items/7?v=1"])
    }

    @Test(arguments: ["https://other.example/a", "http://example.com/a", "https://example.com:8443/a", "//evil.test/x"])
    func anotherOriginIsNotInvalidated(location: String) {
        #expect(
            Self.invalidated(.post, ["Location": location, "Content-Location": location]) == ["https://example.com/a"])
    }

    @Test func aLocationThatIsTheTargetIsListedOnce() {
        #expect(
            Self.invalidated(.put, ["Location": "https://example.com/a#top", "Content-Location": "a"]) == [
                "https://example.com/a"
            ])
    }
}
