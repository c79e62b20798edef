import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("Hostile input before sending")
struct LiveHostileInputTests {
    /// A header field, shown escaped in test output.
    struct Field: Sendable, CustomTestStringConvertible {
        var name: String
        var value: String
        var header: HTTPHeader { HTTPHeader(name: name, value: value) }
        var testDescription: String { "\(name.debugDescription): \(value.debugDescription)" }
    }

    static let fields: [Field] = [
        Field(name: "X-Evil", value: "a\r\nInjected: yes"),
        Field(name: "X-Evil", value: "a\rb"),
        Field(name: "X-Evil", value: "a\nb"),
        Field(name: "X-Evil", value: "a\u{0}b"),
        Field(name: "X-Evil\r\nInjected", value: "yes"),
        Field(name: "X\nEvil", value: "v"),
        Field(name: "X\u{0}Evil", value: "v"),
        Field(name: "X Evil", value: "v"),
        Field(name: "", value: "v"),
    ]

    @Test(arguments: TransportKind.allCases, fields)
    func aHeaderFieldWithCRLFOrNULIsRejectedBeforeSending(transport: TransportKind, field: Field) async throws {
        let live = try LiveServer(transport: transport)
        let result = await live.session.get("get", headers: HTTPHeaders([field.header])).result
        guard case .failure(let error) = result, case .invalidRequest = error.reason else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(live.server.requestCount == 0)
        #expect(live.server.connectionCount == 0)
    }

    @Test(arguments: TransportKind.allCases, fields)
    func aFieldAnAdapterAddsIsRejectedBeforeSending(transport: TransportKind, field: Field) async throws {
        let adapter = Interceptor.adapter { request in
            var request = request
            request.headers.add(name: field.name, value: field.value)
            return request
        }
        let live = try LiveServer(transport: transport) { $0.interceptors = [adapter] }
        let result = await live.session.get("get").result
        guard case .failure(let error) = result, case .invalidRequest = error.reason else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(live.server.requestCount == 0)
    }
}

@Suite("Credentials on redirects to another port")
struct LiveCrossPortRedirectTests {
    @Test(arguments: TransportKind.allCases)
    func credentialsDoNotFollowARedirectToAnotherPort(transport: TransportKind) async throws {
        // Same host, another port: another origin (RFC 6454), so no credential may follow.
        let live = try LiveServer(transport: transport)
        let other = try TestServer()
        defer { other.shutDownInBackground() }
        let target = "http://127.0.0.1:\(other.port)/headers"
        let response = await live.session.get(
            "redirect-to", query: [URLQueryItem(name: "url", value: target)],
            headers: [
                "Authorization": "Bearer secret", "Cookie": "session=1", "Proxy-Authorization": "Basic cHJveHk=",
                "X-Keep": "kept",
            ]
        ).serialized(by: .json).response
        let json = try #require(response.value, "\(String(describing: response.error))")
        for name in ["Authorization", "Cookie", "Proxy-Authorization"] {
            #expect(json["headers"]?[name] == nil, "\(name) reached port \(other.port)")
        }
        #expect(json["headers"]?["X-Keep"] == "kept")
        #expect(other.requestCount == 1)
        #expect(response.metrics.redirectCount == 1)
    }
}
