import Ferry
import FerryTestServer
import Foundation

/// Answers each request the way a caching reverse proxy would, through one Ferry session with a cache: the method,
/// target, header fields and body go upstream (or are answered from the cache), and the answer comes back as the
/// session gave it.
struct Gateway: Sendable {
    let session: Session
    let upstream: URL

    /// Fields that describe one hop (RFC 9110 §7.6.1) or its framing, which each side of the gateway writes itself.
    private static let hopFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host",
        "content-length",
    ]

    func answer(_ incoming: TestRequest) async -> TestResponse {
        guard let url = URL(string: upstream.absoluteString + incoming.target) else {
            return .text("ferry-cache-gateway: \(incoming.target) is not a target it can forward", status: 400)
        }
        var headers = HTTPHeaders()
        let dropped = Self.dropped(by: incoming.headers.first { $0.name.lowercased() == "connection" }?.value)
        for (name, value) in incoming.headers where !dropped.contains(name.lowercased()) {
            headers.add(name: name, value: value)
        }
        let body: RequestBody? = incoming.body.isEmpty ? nil : .data(incoming.body, contentType: nil)
        let request = Request(HTTPMethod(rawValue: incoming.method), url: url, headers: headers, body: body)
        let response = await session.request(request).unvalidated().response
        // Nothing is validated, so an error is the transport's: a head without its whole body is no answer either.
        guard let head = response.response, response.error == nil else {
            let reason = response.error.map { "\($0)" } ?? "no response"
            FileHandle.standardError.write(
                Data("ferry-cache-gateway: \(incoming.method) \(incoming.target): \(reason)\n".utf8))
            return .text("ferry-cache-gateway: \(reason)", status: 502)
        }
        let droppedFromResponse = Self.dropped(by: head.headers["Connection"])
        var fields: [(name: String, value: String)] = []
        for field in head.headers where !droppedFromResponse.contains(field.name.lowercased()) {
            fields.append((field.name, field.value))
        }
        // A HEAD answer and a 304 keep the length of the body they stand for; any other length is the gateway's own.
        if incoming.method == "HEAD" || head.statusCode == 304, let length = head.headers["Content-Length"] {
            fields.append(("Content-Length", length))
        }
        if let status = response.metrics.cacheStatus { fields.append(("Ferry-Cache", "\(status)")) }
        return TestResponse(status: head.statusCode, headers: fields, body: .data(response.data ?? Data()))
    }

    /// The hop's fields, and those a `Connection` field names.
    private static func dropped(by connection: String?) -> Set<String> {
        let named = (connection ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        return hopFields.union(named)
    }
}
