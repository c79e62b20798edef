import Ferry
import FerryTesting
import Foundation
import Testing

@Suite("Redirects (in memory)")
struct RedirectTests {
    static func redirect(_ status: Int, to location: String) -> StubResponse {
        StubResponse(statusCode: status, headers: ["Location": location])
    }

    @Test func followsAChainAndCountsHops() async throws {
        let session = stubSession { request in
            let path = request.url.path
            if path.hasPrefix("/r/"), let n = Int(path.dropFirst(3)), n > 0 {
                return Self.redirect(302, to: "/r/\(n - 1)")
            }
            return .json(#"{"done":true}"#)
        }
        let response = await session.get("r/3").response
        #expect(response.statusCode == 200)
        #expect(response.response?.url.path == "/r/0")
        #expect(response.metrics.redirectCount == 3)
        #expect(response.metrics.urls.map(\.path) == ["/r/3", "/r/2", "/r/1", "/r/0"])
    }

    @Test func aLoopEndsWithTooManyRedirects() async throws {
        let calls = Counter()
        let session = stubSession(configure: { $0.redirectPolicy = .follow(limit: 5) }) { _ in
            calls.increment()
            return Self.redirect(302, to: "/loop")
        }
        let error = await #expect(throws: FerryError.self) { try await session.get("loop").value }
        #expect(error?.reason == .tooManyRedirects(limit: 5))
        #expect(error?.statusCode == 302)
        #expect(calls.count == 6)
    }

    @Test func neverFollowingReturnsTheRedirect() async throws {
        let session = stubSession(configure: { $0.redirectPolicy = .never }) { _ in Self.redirect(301, to: "/elsewhere")
        }
        let response = await session.get("x").unvalidated().response
        #expect(response.statusCode == 301)
        #expect(response.response?.headers["Location"] == "/elsewhere")
    }

    @Test(arguments: [(301, "GET"), (302, "GET"), (303, "GET"), (307, "POST"), (308, "POST")])
    func methodAndBodyFollowTheStatus(status: Int, expectedMethod: String) async throws {
        let log = RequestLog()
        let session = stubSession { request in
            log.append(request)
            return request.url.path == "/start" ? Self.redirect(status, to: "/end") : .status(204)
        }
        _ = try await session.post("start", body: .text("payload")).value
        let second = try #require(log.all.last)
        #expect(second.method.rawValue == expectedMethod)
        if expectedMethod == "POST" {
            guard case .data(let body)? = second.body?.content else {
                Issue.record("body dropped on \(status)")
                return
            }
            #expect(body == Data("payload".utf8))
            #expect(second.headers["Content-Type"] == "text/plain; charset=utf-8")
        } else {
            #expect(second.body == nil)
            #expect(second.headers["Content-Type"] == nil)
        }
    }

    @Test func credentialsAreStrippedAcrossOrigins() async throws {
        let log = RequestLog()
        let session = stubSession { request in
            log.append(request)
            switch (request.url.host, request.url.path) {
            case ("stub.test", "/same"): return Self.redirect(302, to: "/other")
            case ("stub.test", "/other"): return Self.redirect(302, to: "http://elsewhere.test/landing")
            default: return .status(204)
            }
        }
        _ = try await session.get("same", headers: ["Authorization": "Bearer secret", "Cookie": "a=b", "X-Keep": "1"])
            .value
        let requests = log.all
        #expect(requests.count == 3)
        #expect(requests[1].headers["Authorization"] == "Bearer secret")
        #expect(requests[2].url.host == "elsewhere.test")
        #expect(requests[2].headers["Authorization"] == nil)
        #expect(requests[2].headers["Cookie"] == nil)
        #expect(requests[2].headers["X-Keep"] == "1")
    }

    @Test func customPolicyCanStopOrRewrite() async throws {
        let session = stubSession(configure: {
            $0.redirectPolicy = .custom { next, _ in next.url.path == "/forbidden" ? nil : next }
        }) { request in
            request.url.path == "/start" ? Self.redirect(302, to: "/forbidden") : .status(204)
        }
        let response = await session.get("start").unvalidated().response
        #expect(response.statusCode == 302)
    }

    @Test func redirectWithoutLocationIsTheResponse() async throws {
        let session = stubSession { _ in .status(302) }
        let response = await session.get("x").unvalidated().response
        #expect(response.statusCode == 302)
        #expect(response.metrics.redirectCount == 0)
    }
}
