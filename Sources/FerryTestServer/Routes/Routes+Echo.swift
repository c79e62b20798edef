import Foundation

extension Router {
    /// `/get`, `/anything[/…]`, `/post`, `/put`, `/patch`, `/delete`, `/echo` (any method), `/headers`,
    /// `/user-agent`, `/response-headers`.
    static let echoRoutes: [BuiltInRoute] =
        ["/get", "/anything", "/anything/*", "/post", "/put", "/patch", "/delete", "/echo"].map { path in
            BuiltInRoute(path) { .jsonObject(Echo.document(for: $0)) }
        } + [
            BuiltInRoute("/headers") { .jsonObject(["headers": Echo.headers(of: $0.request)]) },
            BuiltInRoute("/user-agent") { context in
                .jsonObject(["user-agent": context.request.header("User-Agent") ?? NSNull()] as [String: Any])
            },
            BuiltInRoute("/response-headers") { context in
                var fields: [String: String] = [:]
                for (name, value) in context.request.queryItems { fields[name] = value }
                var response = TestResponse.jsonObject(fields)
                response.headers += context.request.queryItems
                return response
            },
        ]
}

/// The httpbin-style description of a request that the echo endpoints answer with.
enum Echo {
    /// `{"method", "url", "path", "args", "headers", "data", "form", "json"}` for the request in `context`.
    ///
    /// `data` is the body as UTF-8 text, or `data:application/octet-stream;base64,…` when it is not UTF-8.
    /// `form` is filled for `application/x-www-form-urlencoded` bodies; `json` holds the parsed body for JSON media
    /// types and is `null` otherwise.
    static func document(for context: RouteContext) -> [String: Any] {
        let request = context.request
        let mediaType = Echo.mediaType(of: request)
        var form: [String: String] = [:]
        if mediaType == "application/x-www-form-urlencoded" {
            for (name, value) in PercentDecoding.pairs(Substring(String(decoding: request.body, as: UTF8.self))) {
                form[name] = value
            }
        }
        let isJSON = mediaType == "application/json" || mediaType.hasSuffix("+json")
        return [
            "method": request.method,
            "url": absoluteURL(of: request, baseURL: context.baseURL),
            "path": request.path,
            "args": arguments(of: request),
            "headers": headers(of: request),
            "data": text(of: request.body),
            "form": form,
            "json": isJSON ? (JSONBody.decode(request.body) ?? NSNull()) : NSNull(),
        ]
    }

    /// The query items as a dictionary; when a name repeats, the last value wins.
    static func arguments(of request: TestRequest) -> [String: String] {
        var arguments: [String: String] = [:]
        for (name, value) in request.queryItems { arguments[name] = value }
        return arguments
    }

    /// The header fields as a dictionary keyed by the first spelling of each name; repeated fields are joined
    /// with `", "`.
    static func headers(of request: TestRequest) -> [String: String] {
        var spelling: [String: String] = [:]
        var values: [String: String] = [:]
        for (name, value) in request.headers {
            let key = spelling[name.lowercased(), default: name]
            spelling[name.lowercased()] = key
            values[key] = values[key].map { "\($0), \(value)" } ?? value
        }
        return values
    }

    /// The body as text, or a base64 `data:` URL when it is not valid UTF-8.
    static func text(of body: Data) -> String {
        if let text = String(data: body, encoding: .utf8) { return text }
        return "data:application/octet-stream;base64," + body.base64EncodedString()
    }

    /// The lowercased media type of the request's `Content-Type`, without parameters.
    static func mediaType(of request: TestRequest) -> String {
        let contentType = request.header("Content-Type") ?? ""
        return contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            ?? ""
    }

    private static func absoluteURL(of request: TestRequest, baseURL: URL) -> String {
        if !request.target.hasPrefix("/") { return request.target }
        return baseURL.absoluteString + request.target
    }
}
