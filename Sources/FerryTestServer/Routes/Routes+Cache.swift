import Foundation

extension Router {
    /// `/cache?etag=E&max-age=N`: `ETag: "E"` (default `ferry`), `Cache-Control: max-age=N` (default 60) and a
    /// fixed `Last-Modified`; 304 when `If-None-Match` lists the tag (weak or strong, or `*`), or, without
    /// `If-None-Match`, when `If-Modified-Since` equals `Last-Modified`. Otherwise 200 with the echo document.
    static let cacheRoutes: [BuiltInRoute] = [
        BuiltInRoute("/cache") { context in
            let etag = "\"\(context.query("etag") ?? "ferry")\""
            let maxAge = context.queryInt("max-age") ?? 60
            let validators: [(name: String, value: String)] = [
                ("ETag", etag), ("Cache-Control", "max-age=\(maxAge)"), ("Last-Modified", RangeResponder.lastModified),
            ]
            if Conditional.isNotModified(context.request, etag: etag, lastModified: RangeResponder.lastModified) {
                return TestResponse(status: 304, headers: validators)
            }
            var response = TestResponse.jsonObject(Echo.document(for: context))
            response.headers += validators
            return response
        }
    ]
}

/// Conditional request evaluation (RFC 9110 §13).
enum Conditional {
    /// Whether a GET with these conditions gets 304.
    static func isNotModified(_ request: TestRequest, etag: String, lastModified: String) -> Bool {
        if let ifNoneMatch = request.header("If-None-Match") {
            return ifNoneMatch.split(separator: ",").contains { candidate in
                var tag = candidate.trimmingCharacters(in: .whitespaces)
                if tag.hasPrefix("W/") { tag.removeFirst(2) }
                return tag == "*" || tag == etag
            }
        }
        return request.header("If-Modified-Since") == lastModified
    }
}
