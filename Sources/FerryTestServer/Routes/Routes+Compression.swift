import Foundation

extension Router {
    /// The largest `?size=` `/gzip` and `/deflate` accept.
    static let largestCompressedSize = 16 * 1024 * 1024

    /// `/gzip`, `/deflate`: a JSON document (`{"gzipped": true, …}` / `{"deflated": true, …}` with the request's
    /// method and headers) with `Content-Encoding: gzip` / `deflate` (zlib wrapper), in DEFLATE stored blocks.
    /// `?size=N` sends N pattern bytes (`application/octet-stream`) instead, to span several blocks.
    ///
    /// `/gzip-bomb?size=N`: a gzip decompression bomb (``DeflateBomb``) that decodes to about N zeros (1 GiB by
    /// default, at most 4 GiB) from about N / 160 bytes, with `Content-Length`; `&chunked=1` sends it chunked, in
    /// 64 KiB chunks, without one.
    static let compressionRoutes: [BuiltInRoute] = [
        BuiltInRoute("/gzip") { compressed($0, coding: "gzip", flag: "gzipped", wrap: Deflate.gzip) },
        BuiltInRoute("/deflate") { compressed($0, coding: "deflate", flag: "deflated", wrap: Deflate.zlib) },
        BuiltInRoute("/gzip-bomb") { bomb($0) },
    ]

    private static func bomb(_ context: RouteContext) -> TestResponse {
        let size = context.query("size").map { Int($0) } ?? 1 << 30
        guard let size, (1...(4 << 30)).contains(size) else { return context.badRequest("size must be 1...4 GiB") }
        let bomb = DeflateBomb.gzip(decodedSize: size)
        let headers = [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")]
        guard context.query("chunked") == "1" else {
            return TestResponse(status: 200, headers: headers, body: .data(bomb))
        }
        let chunks = stride(from: 0, to: bomb.count, by: 64 << 10).map { bomb[$0..<min($0 + (64 << 10), bomb.count)] }
        return TestResponse(status: 200, headers: headers, body: .chunked(chunks.map { Data($0) }))
    }

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
