import Ferry

extension InMemoryTransport {
    /// Answers requests with one method and path (``InMemoryTransport/init(recorder:routes:)``).
    ///
    /// A path segment written `:name` matches any one segment: `/users/:id` matches `/users/42`.
    public struct Route: Sendable {
        /// The method, or `nil` for any.
        public let method: HTTPMethod?
        /// The path pattern.
        public let path: String
        let respond: Handler

        /// Creates a route.
        /// - Parameters:
        ///   - method: The method, or `nil` for any.
        ///   - path: The path, with `:name` for a segment that may be anything.
        ///   - respond: Answers a matching request; it may wait, and throwing fails the request.
        public init(_ method: HTTPMethod?, _ path: String, respond: @escaping Handler) {
            self.method = method
            self.path = path
            self.respond = respond
        }

        /// A `GET` route.
        /// - Parameters:
        ///   - path: The path pattern.
        ///   - respond: Answers a matching request.
        /// - Returns: The route.
        public static func get(_ path: String, respond: @escaping Handler) -> Route {
            Route(.get, path, respond: respond)
        }

        /// A `GET` route with a fixed answer.
        /// - Parameters:
        ///   - path: The path pattern.
        ///   - stub: The answer.
        /// - Returns: The route.
        public static func get(_ path: String, _ stub: StubResponse) -> Route { Route(.get, path) { _ in stub } }

        /// A `POST` route.
        /// - Parameters:
        ///   - path: The path pattern.
        ///   - respond: Answers a matching request.
        /// - Returns: The route.
        public static func post(_ path: String, respond: @escaping Handler) -> Route {
            Route(.post, path, respond: respond)
        }

        /// A `POST` route with a fixed answer.
        /// - Parameters:
        ///   - path: The path pattern.
        ///   - stub: The answer.
        /// - Returns: The route.
        public static func post(_ path: String, _ stub: StubResponse) -> Route { Route(.post, path) { _ in stub } }

        /// A `PUT` route with a fixed answer.
        /// - Parameters:
        ///   - path: The path pattern.
        ///   - stub: The answer.
        /// - Returns: The route.
        public static func put(_ path: String, _ stub: StubResponse) -> Route { Route(.put, path) { _ in stub } }

        /// A `PATCH` route with a fixed answer.
        /// - Parameters:
        ///   - path: The path pattern.
        ///   - stub: The answer.
        /// - Returns: The route.
        public static func patch(_ path: String, _ stub: StubResponse) -> Route { Route(.patch, path) { _ in stub } }

        /// A `DELETE` route with a fixed answer.
        /// - Parameters:
        ///   - path: The path pattern.
        ///   - stub: The answer.
        /// - Returns: The route.
        public static func delete(_ path: String, _ stub: StubResponse) -> Route { Route(.delete, path) { _ in stub } }

        /// A route that accepts WebSocket upgrades (``/Ferry/Session/webSocket(_:protocols:headers:options:)``) and
        /// hands each socket to `server`.
        /// - Parameters:
        ///   - path: The path pattern.
        ///   - server: The endpoint.
        /// - Returns: The route (a `GET`; a request that is not an upgrade gets `426 Upgrade Required`).
        public static func webSocket(_ path: String, _ server: InMemoryWebSocketServer) -> Route {
            Route(.get, path) { _ in .webSocket(server) }
        }

        /// Whether the route answers `request`.
        func matches(_ request: Request) -> Bool {
            if let method, method != request.method { return false }
            let pattern = path.split(separator: "/", omittingEmptySubsequences: false)
            let actual = request.url.path.split(separator: "/", omittingEmptySubsequences: false)
            guard pattern.count == actual.count else { return false }
            return zip(pattern, actual).allSatisfy { expected, segment in
                expected.hasPrefix(":") ? !segment.isEmpty : expected == segment
            }
        }

        /// `GET /users/:id`.
        var summary: String { "\(method?.rawValue ?? "*") \(path)" }
    }
}
