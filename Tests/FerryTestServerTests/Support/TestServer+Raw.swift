import Foundation
@testable import FerryTestServer

extension TestServer {
    /// Sends one request on a new raw connection and reads one response.
    /// - Parameters:
    ///   - target: the request target, such as `/get?a=1`.
    ///   - method: the method.
    ///   - headers: extra header lines, such as `"Range: bytes=0-9"`.
    ///   - body: a body, sent with `Content-Length`.
    func raw(
        _ target: String,
        method: String = "GET",
        headers: [String] = [],
        body: Data? = nil
    ) throws -> RawResponse {
        let client = try RawClient(port: port)
        client.send(Self.requestText(target, method: method, headers: headers, body: body))
        return try client.readResponse(head: method == "HEAD")
    }

    /// The bytes of a request with `Host` and, when there is a body, `Content-Length`.
    static func requestText(_ target: String, method: String = "GET", headers: [String] = [], body: Data? = nil) -> Data
    {
        var lines = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1"] + headers
        if let body { lines.append("Content-Length: \(body.count)") }
        var data = Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        if let body { data.append(body) }
        return data
    }
}

extension RawClient {
    /// Sends a request built by `TestServer.requestText`.
    func send(request target: String, method: String = "GET", headers: [String] = [], body: Data? = nil) {
        send(TestServer.requestText(target, method: method, headers: headers, body: body))
    }
}
