import Ferry
import FerryTestServer
import Foundation
import Testing

extension ConformanceTests {
    /// Conformance: cookies. Ferry keeps no cookie jar (README: "what Ferry lacks"), on either transport: a
    /// `Set-Cookie` reaches the caller, and a `Cookie` goes out only when the caller sets one.
    @Suite("Conformance: cookies")
    struct Cookies {
        @Test(arguments: TransportKind.allCases)
        func aSetCookieReachesTheCallerAndIsNotReplayedByItself(transport: TransportKind) async throws {
            // Given: a response that sets two cookies.
            let live = try LiveServer(transport: transport)
            live.server.setRoute("/login") { _ in
                TestResponse.text("welcome").adding(header: "Set-Cookie", value: "flavour=oat; Path=/")
                    .adding(header: "Set-Cookie", value: "size=large; Path=/")
            }

            // When: it arrives, then the server asks for cookies on the same session.
            let head = try await live.session.get("login").head
            let later = try await live.session.get("cookies").serializingJSON()

            // Then: the caller sees both cookies; the next request carries none the caller did not set.
            #expect(head.headers.values(for: "Set-Cookie") == ["flavour=oat; Path=/", "size=large; Path=/"])
            #expect(later["cookies"]?.objectValue?.isEmpty == true, "\(later)")
            #expect(live.server.receivedRequests.allSatisfy { $0.header("Cookie") == nil })
        }

        @Test(arguments: TransportKind.allCases)
        func aCookieSetOnARedirectIsNotSentToItsTarget(transport: TransportKind) async throws {
            // Given: `/cookies/set?flavour=oat` answers 302 with a Set-Cookie, to `/cookies`.
            let live = try LiveServer(transport: transport)

            // When: Ferry follows the redirect.
            let json = try await live.session.get("cookies/set", query: [.init(name: "flavour", value: "oat")])
                .serializingJSON()

            // Then: the target got no Cookie field.
            #expect(json["cookies"]?.objectValue?.isEmpty == true, "\(json)")
            #expect(live.server.receivedRequests.count == 2)
            #expect(live.server.receivedRequests.allSatisfy { $0.header("Cookie") == nil })
        }

        @Test(arguments: TransportKind.allCases)
        func aCookieTheCallerSetsIsSentAsItIs(transport: TransportKind) async throws {
            let live = try LiveServer(transport: transport)

            let json = try await live.session.get("cookies", headers: ["Cookie": "flavour=oat; size=large"])
                .serializingJSON()

            #expect(json["cookies"]?["flavour"] == "oat")
            #expect(json["cookies"]?["size"] == "large")
            #expect(live.server.receivedRequests.last?.headerValues("Cookie") == ["flavour=oat; size=large"])
        }
    }
}
