import Ferry
import Foundation
import Testing

@Suite("Interop: httpbin under gunicorn", .enabled(if: InteropServers.httpbin != nil))
struct HTTPBinInteropTests {
    func makeSession(_ transport: TransportKind) -> Session {
        Session(
            configuration: .init(
                baseURL: InteropServers.httpbin, idleTimeout: Duration.seconds(20).scaled,
                transport: transport.makeTransport()))
    }

    struct Args: Decodable, Equatable {
        var a: String
        var b: String
    }

    struct Echo: Decodable {
        var args: Args
        var url: String
    }

    @Test(arguments: TransportKind.allCases) func frontDoor(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let url = try #require(InteropServers.httpbin).appending(path: "get").appending(queryItems: [
            .init(name: "a", value: "1")
        ])
        let json: JSON = try await session.get(url).serializingJSON()
        #expect(json["args"]?["a"] == "1")
        let echo: Echo = try await session.get("get?a=x&b=y%20z").serializingDecodable(Echo.self)
        #expect(echo.args == Args(a: "x", b: "y z"))
        let text: String = try await session.get("robots.txt").serializingString()
        #expect(text.contains("User-agent"))
        let data: Data = try await session.get("bytes/2048").serializingData()
        #expect(data.count == 2048)
    }

    @Test(arguments: TransportKind.allCases) func defaultHeadersArrive(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let json = try await session.get("headers").serializingJSON()
        #expect(json["headers"]?["User-Agent"] == .string("Ferry/\(Session.version)"))
        #expect(json["headers"]?["Accept-Language"] != nil)
    }

    @Test(arguments: TransportKind.allCases) func queryEscapingRoundTrips(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let tricky = "a b&c=d+e/é?#"
        let json = try await session.get("get", query: [.init(name: "q", value: tricky)]).serializingJSON()
        #expect(json["args"]?["q"] == .string(tricky))
    }

    @Test(arguments: TransportKind.allCases) func formAndJSONBodies(transport: TransportKind) async throws {
        let session = makeSession(transport)
        struct Form: Encodable { var name: String; var tags: [String] }
        let form = try await session.post("post", body: .form(Form(name: "ferry boat", tags: ["a", "b"])))
            .serializingJSON()
        #expect(form["form"]?["name"] == "ferry boat")
        #expect(form["form"]?["tags[]"] == ["a", "b"])
        let json = try await session.put("put", body: .json(["n": 1])).serializingJSON()
        #expect(json["json"]?["n"] == 1)
        let patched = try await session.patch("patch", body: .text("hi")).serializingJSON()
        #expect(patched["data"] == "hi")
        let deleted = try await session.delete("delete", body: .form([(name: "id", value: "7")])).serializingJSON()
        #expect(deleted["args"]?["id"] == "7")
    }

    @Test(arguments: TransportKind.allCases) func statusValidation(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let error = await #expect(throws: FerryError.self) { try await session.get("status/503").value }
        #expect(error?.reason == .unacceptableStatus(503))
        #expect(try await session.get("status/503").validate(statusCode: [503]).serializingData().isEmpty)
        #expect(try await session.get("status/204").serializingDecodable(Empty.self) == Empty())
        #expect(try await session.head("get").serializingJSON() == .null)
    }

    @Test(arguments: TransportKind.allCases) func redirects(transport: TransportKind) async throws {
        let session = makeSession(transport)
        for path in ["redirect/3", "relative-redirect/3", "absolute-redirect/3"] {
            let response = await session.get(path).serialized(by: .json).response
            #expect(response.response?.url.path == "/get", "\(path)")
            #expect(response.metrics.redirectCount == 3, "\(path)")
        }
        let error = await #expect(throws: FerryError.self) { try await session.get("redirect/11").value }
        #expect(error?.reason == .tooManyRedirects(limit: 10))
    }

    @Test(arguments: TransportKind.allCases) func redirect307KeepsThePOSTBody(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let json = try await session.post(
            "redirect-to", body: .text("keep me"),
            query: [.init(name: "url", value: "/anything"), .init(name: "status_code", value: "307")]
        ).serializingJSON()
        #expect(json["method"] == "POST")
        #expect(json["data"] == "keep me")
    }

    @Test(arguments: TransportKind.allCases) func authentication(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let credentials = Data("user:passwd".utf8).base64EncodedString()
        let ok = try await session.get("basic-auth/user/passwd", headers: ["Authorization": "Basic \(credentials)"])
            .serializingJSON()
        #expect(ok["authenticated"] == true)
        let error = await #expect(throws: FerryError.self) { try await session.get("basic-auth/user/passwd").value }
        #expect(error?.reason == .unacceptableStatus(401))
    }

    @Test(arguments: TransportKind.allCases) func compressedBodies(transport: TransportKind) async throws {
        let session = makeSession(transport)
        #expect(try await session.get("gzip").serializingJSON()["gzipped"] == true)
        #expect(try await session.get("deflate").serializingJSON()["deflated"] == true)
    }

    @Test(arguments: TransportKind.allCases) func charsetAndContentTypes(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let text = try await session.get("encoding/utf8").serializingString()
        #expect(text.contains("∮ E⋅da = Q"))
        let error = await #expect(throws: FerryError.self) {
            try await session.get("html", headers: ["Accept": "application/json"]).validateContentTypeAgainstAccept()
                .value
        }
        #expect(error?.reason == .unacceptableContentType(received: "text/html", acceptable: ["application/json"]))
    }

    @Test(arguments: TransportKind.allCases) func exactTimeouts(transport: TransportKind) async throws {
        let session = makeSession(transport)
        var request = Request(url: try #require(InteropServers.httpbin).appending(path: "delay/3"))
        request.idleTimeout = .milliseconds(500)
        let response = await session.request(request).response
        #expect(response.error?.reason == .timedOut(.idle))
        // No hang (scaled for sanitizer builds); the reason proves which timer fired.
        #expect(response.timeline.requestDuration < Duration.seconds(10).scaled)
        let drip = await session.get(
            "drip", query: [.init(name: "duration", value: "1"), .init(name: "numbytes", value: "5")]
        )
        .response
        #expect(drip.value?.count == 5)
    }

    @Test(arguments: TransportKind.allCases) func cookiesAreKeptPerJarAndNotLeakedBetweenSessions(
        transport: TransportKind
    ) async throws {
        let jar = CookieJar()
        let session = Session(
            configuration: .init(
                baseURL: InteropServers.httpbin, idleTimeout: Duration.seconds(20).scaled,
                transport: transport.makeTransport(),
                cookieJar: jar))
        let other = makeSession(transport)
        _ = try await session.get("cookies/set", query: [.init(name: "flavour", value: "oat")]).serializingJSON()
        let mine = try await session.get("cookies").serializingJSON()
        let theirs = try await other.get("cookies/set", query: [.init(name: "x", value: "1")]).serializingJSON()
        // The session with a jar keeps httpbin's cookie; the one without keeps none, on both transports.
        #expect(mine["cookies"]?["flavour"] == "oat")
        #expect(jar.allCookies.map(\.name) == ["flavour"])
        #expect(theirs["cookies"] == [:])
    }
}
