import Foundation

extension Router {
    /// `/wire/…`: legal but unusual responses, written byte for byte, that a client must read correctly.
    ///
    /// - `no-reason`: the status line `HTTP/1.1 200` without a reason phrase, body `ok`, then a close.
    /// - `until-close`: neither `Content-Length` nor chunked coding: the body `1234` ends with the connection.
    /// - `early-hints`: a `103 Early Hints` head with a `Link` field, then the final `200` with body `ok`.
    /// - `empty-chunked`: a chunked body with no chunk, only the last one (`0`), on a connection kept open.
    ///
    /// `/echo-body` (any method) answers the request's body as it came, with its `Content-Type`.
    static let wireRoutes: [BuiltInRoute] =
        [
            ("no-reason", TestResponse.Fault.noReasonPhrase),
            ("until-close", .bodyUntilClose),
            ("early-hints", .earlyHints),
        ].map { name, fault in
            BuiltInRoute("/wire/\(name)") { _ in .fault(fault) }
        } + [
            BuiltInRoute("/wire/empty-chunked") { _ in
                TestResponse(headers: [("Content-Type", "text/plain")], body: .chunked([]))
            },
            BuiltInRoute("/echo-body") { context in
                let type = context.request.header("Content-Type") ?? "application/octet-stream"
                return TestResponse(headers: [("Content-Type", type)], body: .data(context.request.body))
            },
        ]
}
