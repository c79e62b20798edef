import Foundation

/// An HTTP/1.1 server on a loopback port, run in-process, for tests and demos that need a real server without a
/// network.
///
/// It starts listening in `init`, serves httpbin-style built-in endpoints (`/get`, `/status/{code}`, `/range/{n}`,
/// `/sse`, `/upload`, `/gzip`, `/fault/…`, …) and any custom routes, and stops in ``shutdown()`` or `deinit`.
/// A WebSocket upgrade to `/ws/…` is accepted: `/ws/echo` echoes, `/ws/fragmented`, `/ws/bad-utf8`,
/// `/ws/oversize?size=N`, `/ws/oversize-fragmented?size=N`, `/ws/close?code=N`, `/ws/ping` and `/ws/wrong-protocol`
/// send what their names say first; subprotocols `ferry.v2` and `ferry.v1` are known. See ``receivedCloseCodes``.
/// Every server has its own port and routes, so tests can run in parallel.
///
/// ```swift
/// let server = try TestServer(routes: ["/hello": { _ in .text("hi") }])
/// defer { server.shutdown() }
/// let url = server.url("/get?a=1")
/// ```
public final class TestServer: Sendable {
    /// A custom route: gets the fully read request, returns the response.
    ///
    /// Handlers run on the connection's thread and must return; to answer slowly, return a response with a
    /// ``TestResponse/delay`` or a paced ``TestResponse/Body``, which shutdown can interrupt.
    public typealias Handler = @Sendable (TestRequest) -> TestResponse

    let core: ServerCore

    /// Starts a server listening on a loopback address.
    /// - Parameters:
    ///   - host: `127.0.0.1` (default), another `127.x.y.z`, `localhost` or `::1`; nothing else is accepted.
    ///   - port: the port, `0` for a free one chosen by the system.
    ///   - routes: custom handlers by exact path (no query), consulted before the built-in endpoints.
    ///   - fallback: the handler of every request no custom route takes, in place of the built-in endpoints (a
    ///     gateway's); `nil`, the default, keeps the built-in endpoints.
    /// - Throws: ``TestServerError`` when the host is not loopback, the port is invalid, or a socket call fails.
    public init(
        host: String = "127.0.0.1", port: Int = 0, routes: [String: Handler] = [:], fallback: Handler? = nil
    ) throws(TestServerError) {
        guard let address = LoopbackAddress(host) else { throw .nonLoopbackHost(host) }
        core = try ServerCore(address: address, port: port, routes: routes, fallback: fallback)
    }

    deinit {
        core.shutdown()
    }

    /// The port the server listens on.
    public var port: Int { core.port }

    /// `http://127.0.0.1:PORT` (or `http://[::1]:PORT`), without a trailing slash.
    public var baseURL: URL { core.baseURL }

    /// The URL of a path on this server.
    /// - Parameter pathAndQuery: a path and optional query, such as `/get?a=1` (a missing leading `/` is added).
    /// - Returns: ``baseURL`` followed by `pathAndQuery`.
    /// - Precondition: `pathAndQuery` forms a valid URL (percent-encode spaces and the like).
    public func url(_ pathAndQuery: String) -> URL {
        let suffix = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        guard let url = URL(string: baseURL.absoluteString + suffix) else {
            preconditionFailure("TestServer.url: \"\(pathAndQuery)\" is not a valid path and query")
        }
        return url
    }

    /// How many requests have been read completely (head and body) so far.
    public var requestCount: Int { core.requestCount }

    /// How many TCP connections have been accepted so far; with keep-alive, fewer than ``requestCount``.
    public var connectionCount: Int { core.connectionCount }

    /// How many connections are open right now.
    public var openConnectionCount: Int { core.openConnectionCount }

    /// The most recent requests read completely (up to 256), oldest first.
    public var receivedRequests: [TestRequest] { core.receivedRequests }

    /// The codes of the WebSocket close frames clients sent to the `/ws/…` endpoints, in order (`1005` for a close
    /// frame without a code). A code is recorded before the server answers the close, so a client that has seen
    /// its close handshake complete finds its code here.
    public var receivedCloseCodes: [Int] { core.closeCodes.codes }

    /// How many WebSocket pings clients sent to the `/ws/…` endpoints (answered with a pong, except on
    /// `/ws/no-pong`).
    public var receivedPingCount: Int { core.pingCount.withLock { $0 } }

    /// Waits until clients have sent at least `count` WebSocket close frames, for a test whose client may end before
    /// the server has read its close frame.
    /// - Parameters:
    ///   - count: the number of close frames to wait for.
    ///   - timeout: how long to wait at most.
    /// - Returns: ``receivedCloseCodes`` then (fewer than `count` after the timeout).
    public func closeCodes(count: Int, timeout: Duration = .seconds(10)) async -> [Int] {
        let log = core.closeCodes
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await log.wait(count: count) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return log.codes
    }

    /// Waits until the server has read at least `count` requests completely, for instance to act while a client
    /// is still waiting for its response.
    /// - Parameters:
    ///   - count: the number of requests to wait for (counted since the server started).
    ///   - timeout: how long to wait at most.
    /// - Returns: `true` once ``requestCount`` reaches `count`; `false` on timeout, cancellation or shutdown.
    public func waitForRequests(count: Int, timeout: Duration = .seconds(10)) async -> Bool {
        let core = core
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await core.waitForRequests(count: count) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Adds, replaces or (with `nil`) removes a custom route while the server runs.
    /// - Parameters:
    ///   - path: the exact path, such as `/token`.
    ///   - handler: the handler, or `nil` to remove the route.
    public func setRoute(_ path: String, _ handler: Handler?) {
        core.setHandler(handler, for: path)
    }

    /// Stops the server: stops accepting, closes every open connection (waking stalled and delayed responses), and
    /// returns once every server thread has finished and every descriptor is closed. Calling it again does nothing.
    ///
    /// Called from a handler, it cannot wait for its own thread: it starts the shutdown and returns at once.
    public func shutdown() {
        core.shutdown()
    }

    /// The checksum `/upload` reports: FNV-1a 64 as 16 lowercase hexadecimal digits.
    /// - Parameter data: the bytes.
    /// - Returns: the checksum, such as `"cbf29ce484222325"` for no bytes.
    public static func checksum(of data: Data) -> String {
        var hash = FNV1a()
        hash.update(data)
        return hash.hexDigest
    }

    /// The bytes `/bytes`, `/stream-bytes` and `/range` serve: byte `i` is `UInt8((offset + i) % 251)`.
    /// - Parameters:
    ///   - count: how many bytes.
    ///   - offset: the index of the first byte.
    /// - Returns: the bytes.
    public static func patternBytes(count: Int, offset: Int = 0) -> Data {
        PatternBytes.make(count: count, offset: offset)
    }

    /// Every descriptor the server holds (listener, wake pipe, connections), for leak tests; empty once stopped.
    var openDescriptors: [Int32] { core.openDescriptors }
}
