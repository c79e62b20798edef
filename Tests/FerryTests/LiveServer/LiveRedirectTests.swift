import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("Redirects against the test server")
struct LiveRedirectTests {
    @Test(arguments: TransportKind.allCases) func relativeAndAbsoluteChains(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let relative = await live.session.get("redirect/3").serialized(by: .json).response
        #expect(relative.response?.url.path == "/get")
        #expect(relative.metrics.redirectCount == 3)
        let absolute = await live.session.get("absolute-redirect/2").response
        #expect(absolute.statusCode == 200)
        #expect(absolute.metrics.redirectCount == 2)
    }

    @Test(arguments: TransportKind.allCases) func loopEndsInAnError(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let error = await #expect(throws: FerryError.self) { try await live.session.get("redirect-loop").value }
        #expect(error?.reason == .tooManyRedirects(limit: 10))
    }

    @Test(arguments: TransportKind.allCases, [307, 308])
    func bodyIsResentOn307And308(transport: TransportKind, status: Int) async throws {
        // FoundationNetworking alone resends an empty body here.
        let live = try LiveServer(transport: transport)
        let json = try await live.session.post(
            "redirect-to", body: .text("precious payload"),
            query: [.init(name: "url", value: "/anything"), .init(name: "status_code", value: "\(status)")]
        ).serializingJSON()
        #expect(json["method"] == "POST")
        #expect(json["data"] == "precious payload")
    }

    @Test(arguments: TransportKind.allCases) func authorizationIsNotForwardedToAnotherHost(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let target = "http://localhost:\(live.server.port)/headers"
        let json = try await live.session.get(
            "redirect-to", query: [.init(name: "url", value: target)],
            headers: ["Authorization": "Bearer secret", "X-Other": "kept"]
        ).serializingJSON()
        #expect(json["headers"]?["Authorization"] == nil)
        #expect(json["headers"]?["X-Other"] == "kept")
    }

    @Test(arguments: TransportKind.allCases) func missingLocationReturnsTheRedirect(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let response = await live.session.get("redirect-missing-location").unvalidated().response
        #expect(response.statusCode == 302, "\(String(describing: response.error))")
    }

    /// FoundationNetworking keeps a 301–308's body aside for the redirect and drops it when there is no `Location`:
    /// on URLSession the body fails loudly instead of reading as empty; AsyncHTTPClient reads it.
    @Test(arguments: TransportKind.allCases) func theBodyOfARedirectWithoutLocationIsReadOrFailsLoudly(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        live.server.setRoute("/moved-nowhere") { _ in TestResponse(status: 301, body: .text("moved, but where?")) }
        let response = await live.session.get("moved-nowhere").unvalidated().response
        #expect(response.statusCode == 301)
        switch transport {
        case .urlSession:
            guard case .unsupportedSetting(let setting, let remedy) = response.error?.reason else {
                Issue.record("a lost body must fail, not read as empty: \(String(describing: response.result))")
                return
            }
            #expect(setting.contains("301 response without a Location field"))
            #expect(remedy.contains("AsyncHTTPClientTransport"))
        #if AsyncHTTPClient
        case .asyncHTTPClient:
            #expect(response.data.map { String(decoding: $0, as: UTF8.self) } == "moved, but where?")
        #endif
        }
    }
}
