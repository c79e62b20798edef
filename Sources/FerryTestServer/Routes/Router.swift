import Foundation

/// A resolved route: how to read the body, and what answers the request.
struct Route {
    /// Whether the body is kept for the handler or only counted and checksummed as it streams in.
    enum BodyHandling {
        case buffer
        case digest
    }

    let bodyHandling: BodyHandling
    let respond: (TestRequest) -> TestResponse
}

/// Chooses the handler for a request: the server's own routes first (exact path), then its fallback or the built-in
/// endpoints.
enum Router {
    /// Every built-in endpoint, in matching order.
    static let builtIns: [BuiltInRoute] =
        echoRoutes + statusRoutes + documentRoutes + byteRoutes + rangeRoutes + timingRoutes + redirectRoutes
        + authRoutes + cookieRoutes + cacheRoutes + streamRoutes + uploadRoutes + compressionRoutes + faultRoutes
        + wireRoutes

    /// Resolves the route for `request`.
    /// - Parameters:
    ///   - request: the request, body not read yet.
    ///   - core: the server (for its custom routes and base URL).
    /// - Returns: the route; a 404 route when nothing matches.
    static func route(for request: TestRequest, core: ServerCore) -> Route {
        if let handler = core.handler(for: request.path) {
            return Route(bodyHandling: .buffer, respond: handler)
        }
        if let fallback = core.fallback { return Route(bodyHandling: .buffer, respond: fallback) }
        for builtIn in builtIns {
            guard let parameters = builtIn.pattern.match(request.path) else { continue }
            let baseURL = core.baseURL
            return Route(bodyHandling: builtIn.bodyHandling) { request in
                builtIn.handler(RouteContext(request: request, parameters: parameters, baseURL: baseURL))
            }
        }
        return Route(bodyHandling: .buffer) { request in
            .jsonObject(["error": "not found", "path": request.path], status: 404)
        }
    }
}

/// One built-in endpoint.
struct BuiltInRoute: Sendable {
    let pattern: RoutePattern
    let bodyHandling: Route.BodyHandling
    let handler: @Sendable (RouteContext) -> TestResponse

    init(
        _ pattern: String,
        body bodyHandling: Route.BodyHandling = .buffer,
        handler: @escaping @Sendable (RouteContext) -> TestResponse
    ) {
        self.pattern = RoutePattern(pattern)
        self.bodyHandling = bodyHandling
        self.handler = handler
    }
}

extension Route.BodyHandling: Sendable {}

/// A path pattern: literal segments, `:name` parameters, and a final `*` that matches one or more segments.
struct RoutePattern: Sendable {
    private enum Segment: Sendable {
        case literal(String)
        case parameter(String)
        case rest
    }

    private let segments: [Segment]

    init(_ pattern: String) {
        segments = pattern.split(separator: "/").map { part in
            if part == "*" { return .rest }
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            return .literal(String(part))
        }
    }

    /// Matches a path.
    /// - Parameter path: the request path, percent-encoded.
    /// - Returns: the parameters (percent-decoded; `*` holds the rest of the path), or `nil` when it does not match.
    func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var remaining = parts[...]
        var parameters: [String: String] = [:]
        for segment in segments {
            switch segment {
            case .literal(let literal):
                guard remaining.first.map(String.init) == literal else { return nil }
                remaining.removeFirst()
            case .parameter(let name):
                guard let value = remaining.first, !value.isEmpty else { return nil }
                parameters[name] = PercentDecoding.decode(value, plusIsSpace: false)
                remaining.removeFirst()
            case .rest:
                guard !remaining.isEmpty else { return nil }
                parameters["*"] = PercentDecoding.decode(
                    Substring(remaining.joined(separator: "/")), plusIsSpace: false)
                remaining.removeAll()
            }
        }
        return remaining.isEmpty ? parameters : nil
    }
}

/// What a built-in handler sees: the request, the path parameters, and where the server lives.
struct RouteContext {
    let request: TestRequest
    let parameters: [String: String]
    let baseURL: URL

    /// A path parameter as an integer.
    func int(_ name: String) -> Int? {
        parameters[name].flatMap { Int($0) }
    }

    /// A path parameter as a number of seconds (fractions allowed).
    func seconds(_ name: String) -> Double? {
        parameters[name].flatMap { Double($0) }.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    /// A query item.
    func query(_ name: String) -> String? {
        request.query(name)
    }

    /// A query item as an integer, `nil` when absent or not a number.
    func queryInt(_ name: String) -> Int? {
        query(name).flatMap { Int($0) }
    }

    /// A query item as a finite, non-negative number.
    func queryDouble(_ name: String) -> Double? {
        query(name).flatMap { Double($0) }.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    /// A 400 JSON answer naming what is wrong.
    func badRequest(_ reason: String) -> TestResponse {
        .jsonObject(["error": reason, "path": request.path], status: 400)
    }
}

extension Duration {
    /// A duration from fractional seconds.
    static func fractionalSeconds(_ seconds: Double) -> Duration {
        .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
