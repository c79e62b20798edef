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
    /// - `bad-length`, `negative-length`: `Content-Length: 99999999999999999999999` / `-1`, 9 bytes, then a close.
    /// - `conflicting-lengths`: two fields `Content-Length: 10` and `Content-Length: 4`, 9 bytes, then a close.
    /// - `joined-lengths`: one field `Content-Length: 10, 4`, 9 bytes, then a close.
    /// - `trailer`: a chunked `hello` with the trailer field `X-A: 1`, then a close.
    /// - `continue-storm`: `100 Continue` heads without end, never a final response.
    /// - `truncate-chunked`: a chunked body, the chunk `hello`, then a clean close without the last chunk.
    /// - `lowercase-version`: the status line `Http/1.1 200 OK` (the protocol name is case-sensitive), then a close.
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
        ("bad-length", .contentLengths(["99999999999999999999999"])),
        ("negative-length", .contentLengths(["-1"])),
        ("conflicting-lengths", .contentLengths(["10", "4"])),
        ("joined-lengths", .contentLengths(["10, 4"])),
        ("trailer", .trailer),
        ("continue-storm", .continueStorm),
        ("truncate-chunked", .truncatedChunkedBody),
        ("lowercase-version", .lowercaseVersion),
    ].map { name, fault in
        BuiltInRoute("/fault/\(name)") { _ in .fault(fault) }
    }
}
