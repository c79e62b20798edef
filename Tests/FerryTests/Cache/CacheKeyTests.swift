@testable import Ferry
import Foundation
import Testing

@Suite("Cache key (RFC 9111 §2)")
struct CacheKeyTests {
    static func uri(_ text: String) -> String? { CacheKey.normalisedURI(URL(string: text)!) }

    @Test(arguments: [
        ("HTTPS://Example.COM/a", "https://example.com/a"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("http://example.com:80/a", "http://example.com/a"),
        ("http://example.com:8080/a", "http://example.com:8080/a"),
        ("https://example.com:80/a", "https://example.com:80/a"),
        ("https://example.com", "https://example.com/"),
        ("https://example.com?q=1", "https://example.com/?q=1"),
        ("https://example.com/a#section", "https://example.com/a"),
        ("https://example.com/A/b?Q=X&y=%2F", "https://example.com/A/b?Q=X&y=%2F"),
        ("https://example.com/%7Ea", "https://example.com/%7Ea"),
    ])
    func normalisation(url: String, expected: String) {
        #expect(Self.uri(url) == expected)
    }

    @Test(arguments: [
        "HTTPS://Example.COM/a", "https://example.com:443/a", "http://example.com:80/a", "http://Example.com:8080",
        "https://example.com:80/a?b#c", "https://example.com", "https://example.com?q=1#f", "http://a.test/%7Ea?x=%2F",
        "http://a.test/a/../b/./c", "http://a.test:0080/", "http://user:pw@a.test/", "http://[::1]:80/x",
        "http://127.0.0.1:443/", "https://127.0.0.1:443", "http://a.test/#", "http://a.test/?", "http://a.test/a;b=c",
        "http://xn--bcher-kva.example/", "https://a.test/~user/ä", "http://a.test/a?b=c&d=%ZZ", "HTTP://A.Test:80",
        "HTTPS://Ex!mple.COM:039/a#c", "http://a.test:99999/", "http://a.test:65535/",
    ])
    func theTextFastPathAgreesWithURLComponents(url: String) throws {
        let url = try #require(URL(string: url))
        if let fast = CacheKey.plainHTTPURI(url.absoluteString) {
            #expect(fast == CacheKey.componentsURI(url))
        }
    }

    @Test(arguments: ["/relative", "mailto:someone@example.com", "file:///tmp/x"])
    func aURLWithoutHostHasNoKey(url: String) {
        #expect(CacheKey(method: .get, url: URL(string: url)!) == nil)
    }

    @Test func theMethodIsPartOfTheKey() {
        let url = URL(string: "https://example.com/a")!
        #expect(CacheKey(method: .get, url: url) != CacheKey(method: .head, url: url))
        #expect(
            CacheKey(method: .get, url: url) == CacheKey(method: .get, url: URL(string: "HTTPS://example.com:443/a#b")!)
        )
        #expect(CacheKey(method: .get, url: url)?.description == "GET https://example.com/a")
    }

    @Test(arguments: [
        ("http://a.test/x", "http://A.TEST:80/y", true), ("https://a.test", "https://a.test:443/", true),
        ("https://a.test", "http://a.test", false), ("https://a.test", "https://b.test", false),
        ("https://a.test:8443", "https://a.test", false),
    ])
    func sameOrigin(a: String, b: String, expected: Bool) {
        #expect(CacheKey.sameOrigin(URL(string: a)!, URL(string: b)!) == expected)
    }
}
