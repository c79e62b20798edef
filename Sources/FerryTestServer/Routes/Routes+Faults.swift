import Foundation

extension Router {
    /// `/fault/…`: every way a server can break an exchange, each ending by itself or at shutdown.
    ///
    /// - `reset`: nothing, then a TCP RST.
    /// - `reset-mid-body`: `Content-Length: 100000`, 1,000 bytes, then an RST.
    /// - `truncate`: `Content-Length: 1000`, 500 bytes, then a clean close.
    /// - `bad-chunk`: a chunked body whose second chunk-size line is `zz`, then a close.
    /// - `garbage`: `HELLO THIS IS NOT HTTP`, then a close.
    /// - `stall-headers`: nothing, ever (until shutdown or the client leaves).
    /// - `stall-body`: `Content-Length: 1000`, 10 bytes, then nothing more.
    /// - `close`: nothing, then a clean close.
    /// - `huge-header`: a 1 MiB header line.
    static let faultRoutes: [BuiltInRoute] = [
        ("reset", TestResponse.Fault.reset),
        ("reset-mid-body", .resetMidBody()),
        ("truncate", .truncatedBody()),
        ("bad-chunk", .badChunk),
        ("garbage", .garbage),
        ("stall-headers", .stallBeforeHead),
        ("stall-body", .stalledBody()),
        ("close", .close),
        ("huge-header", .hugeHeader()),
    ].map { name, fault in
        BuiltInRoute("/fault/\(name)") { _ in .fault(fault) }
    }
}
