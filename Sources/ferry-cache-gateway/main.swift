import Dispatch
import Ferry
import FerryLocking
import FerryTestServer
import Foundation

// ferry-cache-gateway: a caching reverse proxy made of one Ferry `Session` with an `HTTPCache`, so that an HTTP cache
// test suite written for proxies and CDNs (http-tests/cache-tests, whose client talks to one base URL) can judge
// Ferry's cache. It listens on loopback and forwards only to a loopback upstream.
//
//   ferry-cache-gateway [--port 8001] [--upstream http://127.0.0.1:8000] [--mode private|shared]
//                       [--transport urlsession|ahc] [--disk DIR]
//
// Redirects are passed back, not followed; no status is refused; nothing is retried. The answer carries a
// `Ferry-Cache` field with the cache's decision (hit, staleHit, revalidated, miss, unsatisfiable).

let options = GatewayOptions(CommandLine.arguments.dropFirst())
let session = Session(
    configuration: .init(
        headers: [:], idleTimeout: .seconds(20), redirectPolicy: .never, transport: options.makeTransport(),
        cache: options.makeCache()))
let gateway = Gateway(session: session, upstream: options.upstream)
let server = try TestServer(port: options.port) { request in
    // The server gives each connection a thread of its own, so waiting here holds up only this connection.
    let answer = Locked<TestResponse?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let response = await gateway.answer(request)
        answer.withLock { $0 = response }
        done.signal()
    }
    done.wait()
    return answer.withLock { $0 } ?? .status(500)
}
FileHandle.standardOutput.write(
    Data(
        "ferry-cache-gateway: \(server.baseURL) → \(options.upstream), \(options.mode) cache, \(options.transport)\n"
            .utf8))
while true { try await Task.sleep(for: .seconds(3_600)) }
