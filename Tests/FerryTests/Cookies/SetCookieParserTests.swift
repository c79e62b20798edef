@testable import Ferry
import Foundation
import Testing

@Suite("Set-Cookie parsing")
struct SetCookieParserTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func parse(_ field: String, from url: String = "https://www.example.com/docs/page") -> Cookie? {
        SetCookieParser.cookie(from: field, url: URL(string: url)!, now: now)
    }

    @Test func readsEveryAttribute() throws {
        let cookie = try #require(
            parse("id=42; Domain=example.com; Path=/docs; Secure; HttpOnly; SameSite=Lax; Max-Age=60"))
        #expect(cookie.name == "id")
        #expect(cookie.value == "42")
        #expect(cookie.domain == "example.com")
        #expect(!cookie.isHostOnly)
        #expect(cookie.path == "/docs")
        #expect(cookie.isSecure)
        #expect(cookie.isHTTPOnly)
        #expect(cookie.sameSite == .lax)
        #expect(cookie.expires == now.addingTimeInterval(60))
        #expect(cookie.creationDate == now)
    }

    @Test func withoutAttributesItIsAHostOnlySessionCookie() throws {
        let cookie = try #require(parse("a=b"))
        #expect(cookie.domain == "www.example.com")
        #expect(cookie.isHostOnly)
        #expect(cookie.path == "/docs")
        #expect(cookie.expires == nil)
        #expect(!cookie.isSecure && !cookie.isHTTPOnly && cookie.sameSite == nil)
    }

    @Test func attributeNamesIgnoreCase() throws {
        let cookie = try #require(
            parse("id=1; dOmAiN=EXAMPLE.com; pAtH=/; sEcUrE; HTTPONLY; samesite=STRICT; max-AGE=5"))
        #expect(cookie.domain == "example.com")
        #expect(cookie.path == "/")
        #expect(cookie.isSecure && cookie.isHTTPOnly)
        #expect(cookie.sameSite == .strict)
        #expect(cookie.expires == now.addingTimeInterval(5))
        #expect(try #require(parse("ID=1")).name == "ID", "names keep their case")
    }

    @Test func valuesAreKeptAsSentAndTrimmed() throws {
        #expect(try #require(parse(#"a="x y""#)).value == #""x y""#)
        #expect(try #require(parse(#"a="b;c""#)).value == #""b"#, "a quoted ; still ends the value")
        #expect(try #require(parse("  a  =  b c \t; Path=/")).value == "b c")
        #expect(try #require(parse("a=")).value == "")
        #expect(try #require(parse("a=b=c")).value == "b=c")
        #expect(try #require(parse("a=é☃")).value == "é☃")
    }

    @Test(arguments: [
        "", "noequals", "=value", "  =x", ";a=b", "a\u{0}=b", "a=b\r\nX-Injected: 1", "a=b\u{7F}", "a\nb=c",
    ])
    func malformedPairsAreIgnored(field: String) {
        #expect(parse(field) == nil)
    }

    @Test func malformedAttributesAreSkipped() throws {
        let cookie = try #require(
            parse(
                "a=b;;; =x; Max-Age=abc; Max-Age=; Max-Age=1e3; Max-Age=-; Expires=soon; Domain=; SameSite=Sometimes;"))
        #expect(cookie.expires == nil)
        #expect(cookie.isHostOnly)
        #expect(cookie.sameSite == nil)
    }

    @Test func maxAgeWinsOverExpiresInEitherOrder() throws {
        let expires = "Expires=Wed, 21 Oct 2037 07:28:00 GMT"
        #expect(try #require(parse("a=b; Max-Age=10; \(expires)")).expires == now.addingTimeInterval(10))
        #expect(try #require(parse("a=b; \(expires); Max-Age=10")).expires == now.addingTimeInterval(10))
        #expect(try #require(parse("a=b; \(expires)")).expires == Date(timeIntervalSince1970: 2_139_722_880))
        #expect(try #require(parse("a=b; Expires=not a date")).expires == nil)
    }

    @Test func zeroOrNegativeMaxAgeGivesAnExpiredCookie() throws {
        for field in [
            "a=b; Max-Age=0", "a=b; Max-Age=-1", "a=b; Max-Age=-0", "a=b; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
        ] {
            #expect(try #require(parse(field)).isExpired(at: now), "\(field)")
        }
        let huge = try #require(parse("a=b; Max-Age=99999999999999999999999999"))
        #expect(try #require(huge.expires) > now.addingTimeInterval(1e11))
    }

    @Test func theLastOfAnAttributeWins() throws {
        let cookie = try #require(parse("a=b; Path=/one; Path=/two; Max-Age=1; Max-Age=2"))
        #expect(cookie.path == "/two")
        #expect(cookie.expires == now.addingTimeInterval(2))
    }

    @Test(
        arguments: [
            ("Domain=example.com", "example.com"),
            ("Domain=.example.com", "example.com"),
            ("Domain=www.example.com", "www.example.com"),
            ("Domain=EXAMPLE.COM", "example.com"),
            ("Domain=other.com", nil),
            ("Domain=ample.com", nil),  // a suffix, but not at a dot
            ("Domain=a.www.example.com", nil),  // a subdomain of the host
            ("Domain=com", nil),  // a bare top-level domain
            ("Domain=.com", nil),
        ] as [(String, String?)])
    func domainMustContainTheHost(attribute: String, domain: String?) {
        let cookie = parse("a=b; \(attribute)")
        #expect(cookie?.domain == domain)
        #expect(cookie.map { !$0.isHostOnly } ?? true, "a Domain attribute makes the cookie go to subdomains too")
    }

    @Test func ipAddressesAndSingleLabelsMatchOnlyThemselves() throws {
        #expect(parse("a=b; Domain=0.0.1", from: "http://127.0.0.1/") == nil)
        #expect(parse("a=b; Domain=127.0.0.2", from: "http://127.0.0.1/") == nil)
        let ip = try #require(parse("a=b; Domain=127.0.0.1", from: "http://127.0.0.1/"))
        #expect(ip.isHostOnly && ip.domain == "127.0.0.1")
        let ipv6 = try #require(parse("a=b", from: "http://[::1]:8080/"))
        #expect(ipv6.domain == "::1")
        let localhost = try #require(parse("a=b; Domain=localhost", from: "http://localhost/"))
        #expect(localhost.isHostOnly)
        #expect(parse("a=b; Domain=localhost", from: "http://app.localhost/") == nil)
    }

    @Test(
        arguments: [
            ("https://h.example/a/b/c", nil, "/a/b"),
            ("https://h.example/a", nil, "/"),
            ("https://h.example", nil, "/"),
            ("https://h.example/a/b/", nil, "/a/b"),
            ("https://h.example/a/b", "Path=relative", "/a"),
            ("https://h.example/a/b", "Path=", "/a"),
            ("https://h.example/a/b", "Path=/x/y", "/x/y"),
        ] as [(String, String?, String)])
    func pathDefaultsToTheRequestDirectory(url: String, attribute: String?, path: String) throws {
        let cookie = try #require(parse("a=b" + (attribute.map { "; \($0)" } ?? ""), from: url))
        #expect(cookie.path == path)
    }

    @Test func secureNeedsASecureOrigin() {
        #expect(parse("a=b; Secure", from: "http://example.com/") == nil)
        #expect(parse("a=b; Secure", from: "https://example.com/") != nil)
        #expect(parse("a=b; Secure", from: "http://127.0.0.1:8080/") != nil, "loopback counts as secure")
        #expect(parse("a=b; Secure", from: "http://localhost:8080/") != nil)
        #expect(parse("a=b; Secure", from: "http://[::1]:8080/") != nil)
    }

    @Test func namePrefixesAreEnforced() {
        #expect(parse("__Secure-a=b") == nil)
        #expect(parse("__Secure-a=b; Secure") != nil)
        #expect(parse("__secure-a=b") == nil, "prefixes ignore case")
        #expect(parse("__Host-a=b; Secure; Path=/; Domain=example.com") == nil)
        #expect(parse("__Host-a=b; Secure; Path=/docs") == nil)
        #expect(parse("__Host-a=b; Path=/") == nil)
        #expect(parse("__Host-a=b; Secure; Path=/") != nil)
    }

    @Test func onlyHTTPURLsHaveCookies() {
        #expect(parse("a=b", from: "file:///tmp/x") == nil)
        #expect(parse("a=b", from: "ftp://example.com/") == nil)
        #expect(parse("a=b", from: "wss://example.com/") != nil)
    }

    @Test(.ownThreads) func sizesAreBounded() throws {
        let name = String(repeating: "n", count: 96)
        #expect(parse(name + "=" + String(repeating: "v", count: 4000)) != nil)
        #expect(parse(name + "=" + String(repeating: "v", count: 4001)) == nil)
        #expect(parse("a=" + String(repeating: "v", count: 1 << 20)) == nil)
        // An attribute value over 1,024 bytes is ignored: the path falls back to the default.
        let longPath = try #require(parse("a=b; Path=/" + String(repeating: "p", count: 1024)))
        #expect(longPath.path == "/docs")
        // A megabyte of attributes is read, linearly, and the ones that count are kept.
        let many = try #require(parse("a=b" + String(repeating: "; x=y", count: 200_000) + "; Secure"))
        #expect(many.isSecure)
        #expect(
            SetCookieParser.cookie(from: "a=bcd", url: URL(string: "https://e.com/")!, now: now, maximumSize: 3) == nil)
    }

    @Test(.ownThreads) func anyBytesGiveACookieOrNil() {
        var generator = SplitMix64(seed: 2011)
        let pieces = [
            "a", "=", ";", " ", "\t", "\"", ",", "Domain", "Path", "/", ".", "Max-Age", "Expires", "-", "9", "Secure",
            "__Host-", "__Secure-", "example.com", "é", "\u{0}", "\r\n", "\u{301}", "HttpOnly", "SameSite", "GMT",
        ]
        let url = URL(string: "https://www.example.com/a/b")!
        var parsed = 0
        for _ in 0..<5_000 {
            let count = Int(generator.next() % 30)
            let field = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            if SetCookieParser.cookie(from: field, url: url, now: now) != nil { parsed += 1 }
        }
        #expect(parsed > 0 && parsed < 5_000)
    }
}
