import Ferry
import FerryTestServer
import FerryTesting
import Foundation
import Testing

@Suite("Cookie jar against the test server")
struct LiveCookieTests {
    /// The `Cookie` field the server received, as `/headers` echoes it; `nil` when there was none.
    func cookieField(_ session: Session, _ url: String) async throws -> String? {
        let json = try await session.get(url).serializingJSON()
        return json["headers"]?["Cookie"]?.stringValue
    }

    @Test(arguments: TransportKind.allCases)
    func aCookieSetByOneResponseIsSentOnTheNext(transport: TransportKind) async throws {
        let jar = CookieJar()
        let live = try LiveServer(transport: transport) { $0.cookieJar = jar }
        // `/cookies/set` answers 302 with the Set-Cookie fields; the redirect hop already sends them.
        let json = try await live.session.get(
            "cookies/set", query: [.init(name: "a", value: "1"), .init(name: "b", value: "2")]
        )
        .serializingJSON()
        #expect(json["cookies"] == ["a": "1", "b": "2"])
        #expect(try await cookieField(live.session, "headers") == "a=1; b=2")
        #expect(jar.allCookies.map(\.domain) == ["127.0.0.1", "127.0.0.1"])
    }

    @Test(arguments: TransportKind.allCases)
    func twoSetCookieFieldsAreBothStored(transport: TransportKind) async throws {
        let jar = CookieJar()
        let live = try LiveServer(transport: transport) { $0.cookieJar = jar }
        let first = "a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/"
        let second = "b=2; HttpOnly; SameSite=Strict"
        let query = [URLQueryItem(name: "Set-Cookie", value: first), URLQueryItem(name: "Set-Cookie", value: second)]
        _ = try await live.session.get("response-headers", query: query).value
        let cookies = jar.allCookies
        #expect(cookies.map(\.name) == ["a", "b"])
        #expect(cookies.first?.expires == Date(timeIntervalSince1970: 2_139_722_880))
        #expect(cookies.last?.isHTTPOnly == true)
        #expect(cookies.last?.sameSite == .strict)
        #expect(try await cookieField(live.session, "headers") == "a=1; b=2")
    }

    @Test(arguments: TransportKind.allCases)
    func cookiesOf127001AreNotSentToLocalhost(transport: TransportKind) async throws {
        let jar = CookieJar()
        let live = try LiveServer(transport: transport) { $0.cookieJar = jar }
        let localhost = "http://localhost:\(live.server.port)"
        _ = try await live.session.get("response-headers", query: [.init(name: "Set-Cookie", value: "ip=1")]).value
        #expect(try await cookieField(live.session, "headers") == "ip=1")
        #expect(try await cookieField(live.session, "\(localhost)/headers") == nil)

        // Across a redirect: neither the jar's cookie nor the caller's own Cookie field reaches the other origin.
        let json = try await live.session.get(
            "redirect-to", query: [.init(name: "url", value: "\(localhost)/headers")], headers: ["Cookie": "own=1"]
        ).serializingJSON()
        #expect(json["headers"]?["Cookie"] == nil)
    }

    @Test(arguments: TransportKind.allCases)
    func redirectsSetCookiesForTheirOwnOriginOnly(transport: TransportKind) async throws {
        let jar = CookieJar()
        let live = try LiveServer(transport: transport) { $0.cookieJar = jar }
        let port = live.server.port
        // 127.0.0.1 sets c=1 and redirects to localhost, which sets l=2 and redirects back to 127.0.0.1/headers.
        var back = URLComponents(string: "http://localhost:\(port)/cookies/redirect-to")!
        back.queryItems = [
            .init(name: "set", value: "l=2; Path=/"), .init(name: "url", value: "http://127.0.0.1:\(port)/headers"),
        ]
        let json = try await live.session.get(
            "cookies/redirect-to",
            query: [.init(name: "set", value: "c=1; Path=/"), .init(name: "url", value: back.url!.absoluteString)],
            headers: ["Cookie": "own=1"]
        ).serializingJSON()
        #expect(json["headers"]?["Cookie"] == "c=1", "the jar's cookie for 127.0.0.1 only; the caller's stays removed")
        #expect(jar.cookies(for: URL(string: "http://localhost:\(port)/")!).map(\.name) == ["l"])
        #expect(jar.cookies(for: URL(string: "http://127.0.0.1:\(port)/")!).map(\.name) == ["c"])
    }

    @Test(arguments: TransportKind.allCases)
    func expiredAndDeletedCookiesAreNotSent(transport: TransportKind) async throws {
        let clock = ManualDateClock()
        let jar = CookieJar(now: clock.reader)
        let live = try LiveServer(transport: transport) { $0.cookieJar = jar }
        let fields = ["brief=1; Max-Age=60", "kept=1", "gone=1"]
        _ = try await live.session.get("response-headers", query: fields.map { .init(name: "Set-Cookie", value: $0) })
            .value
        #expect(try await cookieField(live.session, "headers") == "brief=1; kept=1; gone=1")
        clock.advance(by: 60)
        let json = try await live.session.get("cookies/delete", query: [.init(name: "gone", value: nil)])
            .serializingJSON()
        #expect(json["cookies"] == ["kept": "1"])
        #expect(jar.allCookies.map(\.name) == ["kept"])
    }

    @Test(arguments: TransportKind.allCases)
    func withoutAJarNoCookieIsKeptOrSent(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let json = try await live.session.get("cookies/set", query: [.init(name: "a", value: "1")]).serializingJSON()
        #expect(json["cookies"] == [:])
        #expect(try await cookieField(live.session, "headers") == nil)
        #expect(try await cookieField(live.session, "headers") == nil)
        #expect(live.session.configuration.cookieJar == nil)
    }

    @Test func theInMemoryTransportGetsTheSameCookies() async throws {
        let recorder = RequestRecorder()
        let jar = CookieJar()
        let transport = InMemoryTransport(recorder: recorder) { request in
            request.url.path == "/login"
                ? StubResponse(
                    headers: [
                        HTTPHeader(name: "Set-Cookie", value: "id=1; Path=/"),
                        HTTPHeader(name: "Set-Cookie", value: "theme=dark"),
                    ])
                : .status(204)
        }
        let session = Session(configuration: Session.Configuration(transport: transport, cookieJar: jar))
        _ = try await session.post("http://api.test/login").value
        _ = try await session.get("http://api.test/me").value
        _ = try await session.get("http://other.test/me").value
        #expect(recorder.requests.map { $0.headers["Cookie"] } == [nil, "id=1; theme=dark", nil])
    }
}
