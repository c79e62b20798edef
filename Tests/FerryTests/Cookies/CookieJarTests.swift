@testable import Ferry
import Foundation
import Testing

@Suite("Cookie jar: matching, expiry, replacement, limits")
struct CookieJarTests {
    let clock = ManualDateClock()

    func makeJar(_ limits: CookieJar.Limits = CookieJar.Limits()) -> CookieJar {
        CookieJar(limits: limits, now: clock.reader)
    }

    func names(_ jar: CookieJar, _ url: String) -> [String] {
        jar.cookies(for: URL(string: url)!).map(\.name)
    }

    @Test func hostOnlyCookiesGoBackToTheirHostOnly() {
        let jar = makeJar()
        jar.store(setCookieFields: ["host=1"], for: URL(string: "https://www.example.com/")!)
        #expect(names(jar, "https://www.example.com/any") == ["host"])
        #expect(names(jar, "https://WWW.EXAMPLE.COM/") == ["host"], "hosts compare ignoring case")
        #expect(names(jar, "https://a.www.example.com/").isEmpty)
        #expect(names(jar, "https://example.com/").isEmpty)
    }

    @Test func domainCookiesGoToSubdomainsToo() {
        let jar = makeJar()
        jar.store(setCookieFields: ["wide=1; Domain=example.com"], for: URL(string: "https://www.example.com/")!)
        #expect(names(jar, "https://example.com/") == ["wide"])
        #expect(names(jar, "https://a.b.example.com/") == ["wide"])
        #expect(names(jar, "https://notexample.com/").isEmpty)
        #expect(names(jar, "https://example.com.evil.test/").isEmpty)
    }

    @Test func ipAddressHostsMatchExactly() {
        let jar = makeJar()
        jar.store(setCookieFields: ["ip=1"], for: URL(string: "http://127.0.0.1:8080/")!)
        #expect(names(jar, "http://127.0.0.1:9090/") == ["ip"], "ports are not part of a cookie's domain")
        #expect(names(jar, "http://localhost:8080/").isEmpty)
        #expect(names(jar, "http://127.0.0.2:8080/").isEmpty)
    }

    @Test func pathsMatchByDirectory() {
        let jar = makeJar()
        jar.store(setCookieFields: ["docs=1; Path=/docs"], for: URL(string: "https://example.com/")!)
        for url in ["https://example.com/docs", "https://example.com/docs/", "https://example.com/docs/a/b"] {
            #expect(names(jar, url) == ["docs"], "\(url)")
        }
        #expect(names(jar, "https://example.com/docsearch").isEmpty)
        #expect(names(jar, "https://example.com/").isEmpty)
        #expect(names(jar, "https://example.com/Docs").isEmpty, "paths are case-sensitive")
    }

    @Test func secureCookiesGoOnlyOverSecureConnections() {
        let jar = makeJar()
        jar.setCookie(Cookie(name: "s", value: "1", domain: "example.com", isSecure: true, isHostOnly: false))
        jar.setCookie(Cookie(name: "l", value: "1", domain: "localhost", isSecure: true))
        #expect(names(jar, "https://example.com/") == ["s"])
        #expect(names(jar, "http://example.com/").isEmpty)
        #expect(names(jar, "ws://example.com/").isEmpty)
        #expect(names(jar, "http://localhost:8080/") == ["l"], "loopback counts as secure")
    }

    @Test func aPlainHTTPOriginCannotReplaceASecureCookie() {
        let jar = makeJar()
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: ["id=secret; Secure"], for: url)
        let stored = jar.store(setCookieFields: ["id=forged"], for: URL(string: "http://example.com/")!)
        #expect(stored.isEmpty)
        #expect(jar.cookies(for: url).map(\.value) == ["secret"])
        #expect(jar.store(setCookieFields: ["other=1"], for: URL(string: "http://example.com/")!).count == 1)
    }

    @Test func expiryFollowsTheInjectedClock() {
        let jar = makeJar()
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: ["short=1; Max-Age=60", "session=1"], for: url)
        clock.advance(by: 59)
        #expect(names(jar, "https://example.com/") == ["short", "session"])
        clock.advance(by: 1)
        #expect(names(jar, "https://example.com/") == ["session"])
        #expect(jar.allCookies.map(\.name) == ["session"])
    }

    @Test func anExpiredCookieDeletesTheOneItReplaces() {
        let jar = makeJar()
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: ["a=1", "b=1", "c=1"], for: url)
        let stored = jar.store(
            setCookieFields: ["a=; Max-Age=0", "b=; Expires=Thu, 01 Jan 1970 00:00:00 GMT", "c=; Max-Age=-5"], for: url)
        #expect(stored.isEmpty)
        #expect(jar.allCookies.isEmpty)
    }

    @Test func theSameNameDomainAndPathReplacesKeepingTheCreationDate() throws {
        let jar = makeJar()
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: ["a=1", "a=1; Path=/x"], for: url)
        let created = clock.now
        clock.advance(by: 10)
        jar.store(setCookieFields: ["a=2"], for: url)
        let cookies = jar.allCookies
        #expect(cookies.count == 2, "another path is another cookie")
        let replaced = try #require(cookies.first { $0.path == "/" })
        #expect(replaced.value == "2")
        #expect(replaced.creationDate == created)
    }

    @Test func longerPathsGoFirstThenOlderCookies() {
        let jar = makeJar()
        let url = URL(string: "https://example.com/a/b/c")!
        jar.store(setCookieFields: ["root1=1; Path=/"], for: url)
        clock.advance(by: 1)
        jar.store(setCookieFields: ["deep=1; Path=/a/b", "mid=1; Path=/a", "root2=1; Path=/"], for: url)
        // root1 replaced: it keeps its place as the older of the two roots.
        jar.store(setCookieFields: ["root1=2; Path=/"], for: url)
        #expect(names(jar, "https://example.com/a/b/c") == ["deep", "mid", "root1", "root2"])
        #expect(jar.addingCookies(to: Request(url: url)).headers["Cookie"] == "deep=1; mid=1; root1=2; root2=1")
    }

    @Test func cookiesJoinTheRequestsOwnCookieField() {
        let jar = makeJar()
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: ["jar=1"], for: url)
        let request = Request(url: url, headers: ["Cookie": "own=1"])
        let sent = jar.addingCookies(to: request)
        #expect(sent.headers.values(for: "Cookie") == ["own=1; jar=1"])
        let elsewhere = Request(url: URL(string: "https://other.com/")!, headers: ["Cookie": "own=1"])
        #expect(jar.addingCookies(to: elsewhere).headers.values(for: "Cookie") == ["own=1"])
    }

    @Test func eachDomainKeepsItsLimitDroppingTheLeastRecentlyUsed() {
        let jar = makeJar(CookieJar.Limits(maximumCookiesPerDomain: 3))
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: ["a=1", "b=1", "c=1"], for: url)
        _ = jar.cookies(for: url)  // uses all three, a first
        jar.store(setCookieFields: ["b=2"], for: url)  // b is used again, last
        jar.store(setCookieFields: ["d=1"], for: url)
        #expect(Set(jar.allCookies.map(\.name)) == ["b", "c", "d"])
        jar.store(setCookieFields: ["x=1"], for: URL(string: "https://other.com/")!)
        #expect(jar.allCookies.count == 4, "the limit is per domain")
    }

    @Test func expiredCookiesAreEvictedBeforeLiveOnes() {
        let jar = makeJar(CookieJar.Limits(maximumCookiesPerDomain: 2))
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: ["old=1", "brief=1; Max-Age=1"], for: url)
        clock.advance(by: 5)
        jar.store(setCookieFields: ["new=1"], for: url)
        #expect(Set(jar.allCookies.map(\.name)) == ["old", "new"])
    }

    @Test func theWholeJarKeepsItsLimit() {
        let jar = makeJar(CookieJar.Limits(maximumCookiesPerDomain: 50, maximumCookieCount: 10))
        for site in 0..<5 {
            let url = URL(string: "https://site\(site).example/")!
            jar.store(setCookieFields: (0..<4).map { "c\($0)=\(site)" }, for: url)
        }
        let cookies = jar.allCookies
        #expect(cookies.count == 10)
        #expect(cookies.allSatisfy { ["site2.example", "site3.example", "site4.example"].contains($0.domain) })
        #expect(names(jar, "https://site4.example/") == ["c0", "c1", "c2", "c3"])
    }

    @Test(.ownThreads) func manyCookiesStayBounded() {
        let jar = makeJar()
        for site in 0..<75 {
            let url = URL(string: "https://s\(site).example/")!
            jar.store(setCookieFields: (0..<60).map { "c\($0)=\(String(repeating: "v", count: 100))" }, for: url)
        }
        #expect(jar.allCookies.count == 3000)
        #expect(names(jar, "https://s74.example/").count == 50)
    }

    @Test func setCookieChecksTheCookie() {
        let jar = makeJar()
        #expect(jar.setCookie(Cookie(name: "ok", value: "1", domain: ".Example.com", isHostOnly: false)))
        #expect(jar.allCookies.first?.domain == "example.com")
        #expect(jar.allCookies.first?.creationDate == clock.now)
        #expect(!jar.setCookie(Cookie(name: "", value: "1", domain: "example.com")))
        #expect(!jar.setCookie(Cookie(name: "a=b", value: "1", domain: "example.com")))
        #expect(!jar.setCookie(Cookie(name: "a", value: "1;x=2", domain: "example.com")))
        #expect(!jar.setCookie(Cookie(name: "a", value: "1\r\n", domain: "example.com")))
        #expect(!jar.setCookie(Cookie(name: "a", value: "1", domain: "")))
        #expect(!jar.setCookie(Cookie(name: "a", value: "1", domain: "example.com", path: "docs")))
        #expect(!jar.setCookie(Cookie(name: "a", value: "1", domain: "e.com", expires: clock.now)))
        #expect(jar.allCookies.count == 1)
    }

    @Test func removeAndRemoveAll() throws {
        let jar = makeJar()
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: ["a=1", "b=1"], for: url)
        let a = try #require(jar.allCookies.first { $0.name == "a" })
        #expect(jar.remove(a))
        #expect(!jar.remove(a))
        #expect(names(jar, "https://example.com/") == ["b"])
        jar.removeAll()
        #expect(jar.allCookies.isEmpty)
        #expect(names(jar, "https://example.com/").isEmpty)
    }

    @Test func theStorageIsAPlainValue() throws {
        var storage = CookieStorage(limits: CookieJar.Limits(maximumCookiesPerDomain: 2, maximumCookieCount: 3))
        let origin = try #require(CookieOrigin(URL(string: "https://a.example.com/x/y")!))
        let now = clock.now
        let wide = Cookie(name: "w", value: "1", domain: "example.com", isHostOnly: false, creationDate: now)
        let host = Cookie(name: "h", value: "1", domain: "a.example.com", path: "/x", creationDate: now)
        let stored = (storage.store(wide, now: now), storage.store(host, now: now))
        #expect(stored == (true, true))
        let sent = storage.cookies(for: origin, now: now)
        #expect(sent.map(\.name) == ["h", "w"])
        let copy = storage
        let removed = storage.remove(host)
        #expect(removed)
        #expect(storage.count == 1)
        #expect(copy.count == 2, "a copy is independent")
        let deleted = !storage.store(Cookie(name: "w", value: "", domain: "example.com", expires: now), now: now)
        #expect(deleted)
        #expect(storage.count == 0 && storage.entries.isEmpty)
    }

    @Test(.ownThreads) func concurrentUseIsSafe() async {
        let jar = makeJar()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let url = URL(string: "https://t\(task % 2).example/")!
                    for index in 0..<200 {
                        jar.store(setCookieFields: ["c\(index % 60)=\(task)"], for: url)
                        _ = jar.cookies(for: url)
                    }
                }
            }
        }
        #expect(jar.allCookies.count == 100)
    }
}
