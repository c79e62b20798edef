import Foundation

extension Router {
    /// `/bytes/{n}`, `/stream-bytes/{n}?chunk=K`.
    static let byteRoutes: [BuiltInRoute] = [
        BuiltInRoute("/bytes/:n") { context in
            guard let count = context.int("n"), count >= 0 else { return context.badRequest("n must be >= 0") }
            return TestResponse(
                status: 200,
                headers: [("Content-Type", "application/octet-stream")],
                body: .pattern(count: count)
            )
        },
        BuiltInRoute("/stream-bytes/:n") { context in
            guard let count = context.int("n"), count >= 0 else { return context.badRequest("n must be >= 0") }
            let chunk = context.queryInt("chunk") ?? 4096
            guard chunk > 0 else { return context.badRequest("chunk must be > 0") }
            return TestResponse(
                status: 200,
                headers: [("Content-Type", "application/octet-stream")],
                body: .pattern(count: count, chunkSize: chunk)
            )
        },
    ]
}
