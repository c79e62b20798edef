import Foundation
import Testing

@testable import FerryTestServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Echo endpoints")
struct EchoTests {
    @Test("GET /get echoes method, URL, query (last value wins) and headers, via URLSession")
    func getEchoesRequest() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var request = URLRequest(url: server.url("/get?a=1&b=two%20words&a=3"))
        request.setValue("yes", forHTTPHeaderField: "X-Ferry")

        let (body, response) = try await URLSessionClient.fetch(request)

        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(json["method"] as? String == "GET")
        #expect(json["path"] as? String == "/get")
        #expect(json["url"] as? String == server.baseURL.absoluteString + "/get?a=1&b=two%20words&a=3")
        #expect(json["args"] as? [String: String] == ["a": "3", "b": "two words"])
        let headers = try #require(json["headers"] as? [String: String])
        #expect(headers["X-Ferry"] == "yes")
        #expect(json["json"] is NSNull)
    }

    @Test("POST /post with a JSON body returns it parsed under \"json\", via URLSession")
    func postEchoesJSON() async throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var request = URLRequest(url: server.url("/post"))
        request.httpMethod = "POST"
        request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"name":"Ferry","n":[1,2]}"#.utf8)

        let (body, response) = try await URLSessionClient.fetch(request)

        #expect(response.statusCode == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(json["method"] as? String == "POST")
        #expect(json["data"] as? String == #"{"name":"Ferry","n":[1,2]}"#)
        let parsed = try #require(json["json"] as? [String: Any])
        #expect(parsed["name"] as? String == "Ferry")
        #expect(parsed["n"] as? [Int] == [1, 2])
    }

    @Test("A form body is decoded under \"form\"")
    func formBody() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw(
            "/anything",
            method: "POST",
            headers: ["Content-Type: application/x-www-form-urlencoded"],
            body: Data("x=1&y=two+words&z=%C3%A9".utf8)
        )

        let json = try response.json()
        #expect(json["form"] as? [String: String] == ["x": "1", "y": "two words", "z": "é"])
    }

    @Test("A body that is not UTF-8 comes back as a base64 data URL")
    func binaryBody() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/echo", method: "PUT", body: Data([0xFF, 0x00, 0xC3]))

        #expect(try response.json()["data"] as? String == "data:application/octet-stream;base64,/wDD")
    }

    @Test(
        "Every echo path answers any method",
        arguments: [
            "/get", "/anything", "/anything/deep/path", "/post", "/put", "/patch", "/delete", "/echo",
        ])
    func echoPaths(path: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw(path, method: "PATCH")

        #expect(response.status == 200)
        let json = try response.json()
        #expect(json["method"] as? String == "PATCH")
        #expect(json["path"] as? String == path)
    }

    @Test("/headers and /user-agent report the request's fields")
    func headersAndUserAgent() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let headers = try server.raw("/headers", headers: ["User-Agent: Ferry/1.0", "X-A: 1", "x-a: 2"]).json()
        let userAgent = try server.raw("/user-agent", headers: ["User-Agent: Ferry/1.0"]).json()

        #expect((headers["headers"] as? [String: String])?["X-A"] == "1, 2")
        #expect(userAgent["user-agent"] as? String == "Ferry/1.0")
    }

    @Test("/response-headers sends its query items as header fields")
    func responseHeaders() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let response = try server.raw("/response-headers?X-Custom=v1&Cache-Control=no-store")

        #expect(response.header("X-Custom") == "v1")
        #expect(response.header("Cache-Control") == "no-store")
    }

    @Test("Custom routes win over built-ins, can change at run time, and anything unknown is a JSON 404")
    func customRoutes() throws {
        let server = try TestServer(routes: ["/get": { request in .text("custom \(request.query("q") ?? "")") }])
        defer { server.shutdown() }

        #expect(try server.raw("/get?q=1").text == "custom 1")
        server.setRoute("/new", { _ in .json(#"{"ok":true}"#, status: 201) })
        #expect(try server.raw("/new").status == 201)
        server.setRoute("/get", nil)
        #expect(try server.raw("/get").json()["path"] as? String == "/get")
        let missing = try server.raw("/nope")
        #expect(missing.status == 404)
        #expect(try missing.json()["error"] as? String == "not found")
    }

    @Test("receivedRequests keeps what the client sent, body included")
    func receivedRequests() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        _ = try server.raw("/post?k=v", method: "POST", headers: ["X-Trace: 7"], body: Data("hello".utf8))

        let request = try #require(server.receivedRequests.last)
        #expect(request.method == "POST")
        #expect(request.target == "/post?k=v")
        #expect(request.path == "/post")
        #expect(request.queryItems.map(\.name) == ["k"])
        #expect(request.header("x-trace") == "7")
        #expect(request.body == Data("hello".utf8))
        #expect(request.httpVersion == "HTTP/1.1")
        #expect(server.requestCount == 1)
    }
}
