import Foundation

extension Router {
    /// The largest `?size=` `/gzip` and `/deflate` accept.
    static let largestCompressedSize = 16 * 1024 * 1024

    /// `/gzip`, `/deflate`: a JSON document (`{"gzipped": true, …}` / `{"deflated": true, …}` with the request's
    /// method and headers) with `Content-Encoding: gzip` / `deflate` (zlib wrapper), in DEFLATE stored blocks.
    /// `?size=N` sends N pattern bytes (`application/octet-stream`) instead, to span several blocks.
    static let compressionRoutes: [BuiltInRoute] = [
        BuiltInRoute("/gzip") { compressed($0, coding: "gzip", flag: "gzipped", wrap: Deflate.gzip) },
        BuiltInRoute("/deflate") { compressed($0, coding: "deflate", flag: "deflated", wrap: Deflate.zlib) },
    ]

    private static func compressed(
        _ context: RouteContext,
        coding: String,
        flag: String,
        wrap: (Data) -> Data
    ) -> TestResponse {
        let content: Data
        let type: String
        if let size = context.query("size") {
            guard let count = Int(size), (0...largestCompressedSize).contains(count) else {
                return context.badRequest("size must be 0...\(largestCompressedSize)")
            }
            content = PatternBytes.make(count: count)
            type = "application/octet-stream"
        } else {
            let request = context.request
            content = JSONBody.encode([flag: true, "method": request.method, "headers": Echo.headers(of: request)])
            type = "application/json"
        }
        return TestResponse(
            status: 200,
            headers: [("Content-Type", type), ("Content-Encoding", coding)],
            body: .data(wrap(content))
        )
    }
}
