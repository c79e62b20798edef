import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("HAR 1.2 export against the test server", .timeLimit(.minutes(1)))
struct LiveHARTests {
    private typealias Object = [String: Any]

    /// Checks that `object[key]` holds a `Type`, recording an issue naming the path when not.
    private static func field<Type>(_ object: Object?, _ key: String, _ type: Type.Type, path: String) -> Type? {
        let value = object?[key] as? Type
        #expect(value != nil, "\(path).\(key) is missing or not a \(Type.self): \(String(describing: object?[key]))")
        return value
    }

    private static func isNumber(_ value: Any?) -> Bool {
        value is Int || value is Double
    }

    /// Checks every field HAR 1.2 requires of an entry, with its type.
    private static func checkRequiredFields(of entry: Object, index: Int) {
        let path = "entries[\(index)]"
        let started = field(entry, "startedDateTime", String.self, path: path) ?? ""
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        #expect(parser.date(from: started) != nil, "\(started) is ISO 8601")
        #expect(isNumber(entry["time"]))
        let request = field(entry, "request", Object.self, path: path)
        for key in ["method", "url", "httpVersion"] { _ = field(request, key, String.self, path: path + ".request") }
        for key in ["cookies", "headers", "queryString"] {
            _ = field(request, key, [Object].self, path: path + ".request")
        }
        for key in ["headersSize", "bodySize"] { _ = field(request, key, Int.self, path: path + ".request") }
        let response = field(entry, "response", Object.self, path: path)
        _ = field(response, "status", Int.self, path: path + ".response")
        for key in ["statusText", "httpVersion", "redirectURL"] {
            _ = field(response, key, String.self, path: path + ".response")
        }
        for key in ["cookies", "headers"] { _ = field(response, key, [Object].self, path: path + ".response") }
        for key in ["headersSize", "bodySize"] { _ = field(response, key, Int.self, path: path + ".response") }
        let content = field(response, "content", Object.self, path: path + ".response")
        _ = field(content, "size", Int.self, path: path + ".response.content")
        _ = field(content, "mimeType", String.self, path: path + ".response.content")
        _ = field(entry, "cache", Object.self, path: path)
        let timings = field(entry, "timings", Object.self, path: path)
        for key in ["send", "wait", "receive"] {
            #expect(isNumber(timings?[key]), "\(path).timings.\(key)")
            #expect((timings?[key] as? Double ?? -1) >= 0, "\(path).timings.\(key) is not negative")
        }
        for header in (request?["headers"] as? [Object] ?? []) + (response?["headers"] as? [Object] ?? []) {
            #expect(header["name"] is String && header["value"] is String)
        }
    }

    @Test(arguments: TransportKind.allCases) func aRedirectedRequestExportsEveryHopRedacted(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport) { $0.redactedHeaderNames.insert("X-API-Key") }
        let response = await live.session.get(
            "cookies/set", query: [.init(name: "flavour", value: "oat")],
            headers: [
                "Authorization": "Bearer top-secret", "Cookie": "session=s3cr3t; theme=d4rk", "x-api-key": "k3y-123",
                "X-Visible": "shown",
            ]
        ).response
        #expect(response.statusCode == 200, "\(String(describing: response.error))")

        let har = live.session.har(of: response)
        let withBody = live.session.har(of: response, includingBody: true)

        let text = try #require(String(data: har, encoding: .utf8))
        // The body, which /cookies makes of the cookies it got, is left out unless asked for.
        for secret in ["top-secret", "s3cr3t", "d4rk", "k3y-123", "flavour=oat;"] {
            #expect(!text.contains(secret), "\(secret) is redacted")
        }
        let root = try #require(try JSONSerialization.jsonObject(with: har) as? Object)
        let log = try #require(root["log"] as? Object)
        #expect(log["version"] as? String == "1.2")
        let creator = try #require(log["creator"] as? Object)
        #expect(creator["name"] as? String == "Ferry")
        #expect(creator["version"] as? String == Session.version)
        let entries = try #require(log["entries"] as? [Object])
        #expect(entries.count == 2, "the redirect and its target")
        for (index, entry) in entries.enumerated() { Self.checkRequiredFields(of: entry, index: index) }

        let first = try #require(entries.first)
        let request = try #require(first["request"] as? Object)
        #expect(request["method"] as? String == "GET")
        #expect((request["url"] as? String)?.hasSuffix("/cookies/set?flavour=oat") == true)
        let query = try #require(request["queryString"] as? [Object])
        #expect(query.first?["name"] as? String == "flavour")
        #expect(query.first?["value"] as? String == "oat")
        let sent = try #require(request["headers"] as? [Object])
        func value(_ name: String, in headers: [Object]) -> String? {
            headers.first { ($0["name"] as? String)?.lowercased() == name.lowercased() }?["value"] as? String
        }
        #expect(value("Authorization", in: sent) == "***")
        #expect(value("Cookie", in: sent) == "***")
        #expect(value("X-API-Key", in: sent) == "***", "the session's own secret header")
        #expect(value("X-Visible", in: sent) == "shown")
        let cookies = try #require(request["cookies"] as? [Object])
        #expect(cookies.map { $0["name"] as? String } == ["session", "theme"])
        #expect(cookies.allSatisfy { $0["value"] as? String == "***" })

        let redirect = try #require(first["response"] as? Object)
        #expect(redirect["status"] as? Int == 302)
        #expect(redirect["statusText"] as? String == "Found")
        #expect(redirect["redirectURL"] as? String == "/cookies")
        #expect(value("Set-Cookie", in: redirect["headers"] as? [Object] ?? []) == "***")
        let setCookies = try #require(redirect["cookies"] as? [Object])
        #expect(setCookies.first?["name"] as? String == "flavour")
        #expect(setCookies.first?["value"] as? String == "***")
        #expect(setCookies.first?["path"] as? String == "/")

        let last = try #require(entries.last)
        let final = try #require(last["response"] as? Object)
        #expect(final["status"] as? Int == 200)
        #expect(final["redirectURL"] as? String == "")
        let content = try #require(final["content"] as? Object)
        #expect((content["mimeType"] as? String)?.hasPrefix("application/json") == true)
        #expect(content["text"] == nil)
        #expect(content["size"] as? Int == response.data?.count)
        let withBodyRoot = try #require(try JSONSerialization.jsonObject(with: withBody) as? Object)
        let withBodyEntries = try #require((withBodyRoot["log"] as? Object)?["entries"] as? [Object])
        let finalContent = (withBodyEntries.last?["response"] as? Object)?["content"] as? Object
        #expect((finalContent?["text"] as? String) == response.data.flatMap { String(data: $0, encoding: .utf8) })
        let redirectContent = (withBodyEntries.first?["response"] as? Object)?["content"] as? Object
        #expect(redirectContent?["text"] == nil, "only the final response has a body")
        #expect((last["comment"] as? String)?.contains("redirect 1") == true)
        let dates = entries.compactMap { $0["startedDateTime"] as? String }
        #expect(dates == dates.sorted(), "in order")
    }

    @Test(arguments: TransportKind.allCases) func theDefaultsHideCredentialsAndLeaveBodiesOut(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let response = await live.session.get("status/500", headers: ["Proxy-Authorization": "Basic cHJveHk="]).response

        let har = response.har()

        let text = try #require(String(data: har, encoding: .utf8))
        #expect(!text.contains("cHJveHk="))
        let root = try #require(try JSONSerialization.jsonObject(with: har) as? Object)
        let entries = try #require((root["log"] as? Object)?["entries"] as? [Object])
        #expect(entries.count == 1)
        let content = try #require((entries.first?["response"] as? Object)?["content"] as? Object)
        #expect(content["text"] == nil, "no body unless asked")
        #expect((entries.first?["response"] as? Object)?["status"] as? Int == 500)
    }

    @Test func aRequestThatFailedBeforeAnyAnswerHasAnEntryWithoutResponse() async throws {
        let server = try TestServer(routes: ["/dead": { _ in .fault(.close) }])
        defer { server.shutDownInBackground() }
        let session = Session(configuration: .init(baseURL: server.baseURL))
        let response = await session.post("dead", body: .text("x")).response
        #expect(response.error != nil)

        let root = try #require(try JSONSerialization.jsonObject(with: response.har()) as? Object)
        let entries = try #require((root["log"] as? Object)?["entries"] as? [Object])
        #expect(entries.count == 1)
        Self.checkRequiredFields(of: try #require(entries.first), index: 0)
        #expect((entries.first?["response"] as? Object)?["status"] as? Int == 0)
        #expect((entries.first?["comment"] as? String)?.contains("failed") == true)
        #expect((entries.first?["request"] as? Object)?["bodySize"] as? Int == 1)
    }
}
