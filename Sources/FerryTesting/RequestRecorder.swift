import Ferry
import Foundation

/// Records the requests an ``InMemoryTransport`` receives, for assertions.
///
/// ```swift
/// let recorder = RequestRecorder()
/// let session = Session(transport: InMemoryTransport(recorder: recorder, routes: [.get("/users/1", .json("{}"))]))
/// _ = try await session.get("http://api.test/users/1").serializingData()
/// let request = try recorder.verify(.get, "/users/1")
/// ```
/// The `verify` helpers throw ``RequestRecorder/Mismatch``, whose description lists what was received, so a
/// failing test says what happened instead. Bodies are in each request: `try await request.body?.bytes()`.
public final class RequestRecorder: Sendable {
    private struct State {
        var requests: [Request] = []
        var unexpected: [Request] = []
    }

    private let state = Locked(State())

    /// Creates an empty recorder.
    public init() {}

    /// Every request received, in order (unexpected ones included).
    public var requests: [Request] { state.withLock { $0.requests } }

    /// The requests no route matched (``InMemoryTransport/init(recorder:routes:)``).
    public var unexpectedRequests: [Request] { state.withLock { $0.unexpected } }

    /// The requests with this method and path, in order.
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The URL's path, without the query.
    /// - Returns: The requests.
    public func requests(_ method: HTTPMethod, _ path: String) -> [Request] {
        requests.filter { $0.method == method && $0.url.path == path }
    }

    /// Forgets everything recorded.
    public func reset() {
        state.withLock { $0 = State() }
    }

    /// Checks that exactly `count` requests with this method and path were received.
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The URL's path, without the query.
    ///   - count: How many; 1 by default.
    /// - Returns: The last of them (for further checks on headers, query or body).
    /// - Throws: ``Mismatch`` listing every request received when the count differs.
    @discardableResult
    public func verify(_ method: HTTPMethod, _ path: String, count: Int = 1) throws(Mismatch) -> Request? {
        let matching = requests(method, path)
        guard matching.count == count else {
            throw Mismatch(
                "expected \(count) \(method.rawValue) \(path) request\(count == 1 ? "" : "s"), got \(matching.count)",
                received: requests)
        }
        return matching.last
    }

    /// Checks that every request matched a route.
    /// - Throws: ``Mismatch`` listing the unexpected requests.
    public func verifyNoUnexpectedRequests() throws(Mismatch) {
        let unexpected = unexpectedRequests
        guard unexpected.isEmpty else {
            throw Mismatch("\(unexpected.count) request(s) matched no route", received: unexpected)
        }
    }

    func record(_ request: Request, expected: Bool = true) {
        state.withLock { state in
            state.requests.append(request)
            if !expected { state.unexpected.append(request) }
        }
    }

    /// A failed check: what was expected, and every request that was received.
    public struct Mismatch: Error, Sendable, CustomStringConvertible {
        /// What was expected and what was found, then one line per request received.
        public let description: String

        init(_ summary: String, received: [Request]) {
            let lines = received.map { "  \($0.method.rawValue) \($0.url.absoluteString)" }
            description =
                summary
                + (lines.isEmpty ? "; no requests were received" : "; received:\n" + lines.joined(separator: "\n"))
        }
    }
}
