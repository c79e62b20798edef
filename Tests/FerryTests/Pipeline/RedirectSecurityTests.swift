import Ferry
import FerryTestServer
import FerryTesting
import Foundation
import Testing

@Suite("Redirect security")
struct RedirectSecurityTests {
    static let secrets: HTTPHeaders = [
        "Authorization": "Bearer secret", "Cookie": "session=1", "Proxy-Authorization": "Basic cHJveHk=",
        "Origin": "http://stub.test", "X-Keep": "kept",
    ]

    static func redirect(_ location: String, status: Int = 302) -> StubResponse {
        StubResponse(statusCode: status, headers: ["Location": location])
    }

    @Test(arguments: ["http://other.test/b", "https://stub.test/b", "http://stub.test:8080/b"])
    func credentialsStayRemovedWhenAChainReturnsToTheFirstOrigin(away: String) async throws {
        // Go's CVE-2024-45336: A → B stripped the credentials, B → A must not bring them back.
        let log = RequestLog()
        let session = stubSession { request in
            log.append(request)
            switch (request.url.host, request.url.port, request.url.path) {
            case ("stub.test", nil, "/a"): return Self.redirect(away)
            case (_, _, "/b"): return Self.redirect("http://stub.test/c")
            default: return .status(204)
            }
        }
        let response = await session.get("a", headers: Self.secrets).response
        let requests = log.all
        try #require(requests.count == 3)
        #expect(requests[0].headers["Authorization"] == "Bearer secret")
        for hop in requests.dropFirst() {
            for name in ["Authorization", "Cookie", "Proxy-Authorization", "Origin"] {
                #expect(hop.headers[name] == nil, "\(name) reached \(hop.url)")
            }
            #expect(hop.headers["X-Keep"] == "kept")
        }
        #expect(response.metrics.urls.map(\.absoluteString) == ["http://stub.test/a", away, "http://stub.test/c"])
    }

    @Test func anAuthenticationInterceptorDoesNotFollowARedirectToAnotherOrigin() async throws {
        let log = RequestLog()
        let auth = AuthenticationInterceptor(credential: .bearer("secret")) { _ in .bearer("other") }
        let session = stubSession(configure: { $0.interceptors = [auth] }) { request in
            log.append(request)
            return request.url.host == "stub.test" ? Self.redirect("http://other.test/x") : .status(204)
        }
        _ = try await session.get("start").value
        #expect(log.all.map { $0.headers["Authorization"] } == ["Bearer secret", nil])
    }

    @Test(arguments: TransportKind.allCases)
    func crossOriginHopsOfTheTestServerStripCredentials(transport: TransportKind) async throws {
        // 127.0.0.1 → localhost → 127.0.0.1: two origins of one loopback server.
        let live = try LiveServer(transport: transport)
        let port = live.server.port
        let back = "http://127.0.0.1:\(port)/headers"
        var away = URLComponents(string: "http://localhost:\(port)/redirect-to")!
        away.queryItems = [URLQueryItem(name: "url", value: back)]
        let response = await live.session.get(
            "redirect-to", query: [URLQueryItem(name: "url", value: away.string)], headers: Self.secrets
        ).serialized(by: .json).response
        let json = try #require(response.value, "\(String(describing: response.error))")
        for name in ["Authorization", "Cookie", "Proxy-Authorization", "Origin"] {
            #expect(json["headers"]?[name] == nil, "\(name) came back to the first origin")
        }
        #expect(json["headers"]?["X-Keep"] == "kept")
        #expect(response.metrics.urls.map { $0.host() } == ["127.0.0.1", "localhost", "127.0.0.1"])
        #expect(response.metrics.redirectCount == 2)
    }

    @Test(arguments: TransportKind.allCases, [301, 302, 303])
    func aPostBecomesAGetWithoutBody(transport: TransportKind, status: Int) async throws {
        let live = try LiveServer(transport: transport)
        let json = try await live.session.post(
            "redirect-to", body: .text("payload"),
            query: [.init(name: "url", value: "/anything"), .init(name: "status_code", value: "\(status)")]
        ).serializingJSON()
        #expect(json["method"] == "GET")
        #expect(json["data"] == "")
        #expect(json["headers"]?["Content-Type"] == nil)
    }
}
