import Foundation

extension Router {
    /// `/upload` (POST or PUT): counts and checksums the body as it streams in, keeping none of it.
    ///
    /// Answers `{"bytes": N, "checksum": "<FNV-1a 64, hex>", "contentType": … or null, "chunked": Bool}`.
    static let uploadRoutes: [BuiltInRoute] = [
        BuiltInRoute("/upload", body: .digest) { context in
            let request = context.request
            guard request.method == "POST" || request.method == "PUT" else {
                return TestResponse.jsonObject(["error": "use POST or PUT"], status: 405)
                    .adding(header: "Allow", value: "POST, PUT")
            }
            let body = request.streamedBody ?? StreamedBody(byteCount: 0, checksum: TestServer.checksum(of: Data()))
            let chunked = request.headerValues("Transfer-Encoding").contains { $0.lowercased().contains("chunked") }
            return .jsonObject(
                [
                    "bytes": body.byteCount,
                    "checksum": body.checksum,
                    "contentType": request.header("Content-Type") ?? NSNull(),
                    "chunked": chunked,
                ] as [String: Any])
        }
    ]
}
