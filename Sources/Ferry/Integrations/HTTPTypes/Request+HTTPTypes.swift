#if HTTPTypes
public import Foundation
public import HTTPTypes

extension Request {
    /// A request for `request`: its method, its fields in order, and its URL, resolved against `baseURL` when it
    /// has no scheme and authority of its own.
    /// - Parameters:
    ///   - request: A swift-http-types request (pseudo-header fields `:scheme`, `:authority`, `:path`).
    ///   - body: The body.
    ///   - baseURL: The URL a request without authority is relative to (a session's `baseURL` is applied later
    ///     anyway, when this is `nil`).
    /// - Throws: ``FerryError/Reason/invalidURL(_:)`` when the pseudo-header fields make no URL.
    public init(_ request: HTTPRequest, body: RequestBody? = nil, baseURL: URL? = nil) throws(FerryError) {
        let path = request.path ?? "/"
        let url: URL?
        if let scheme = request.scheme, let authority = request.authority {
            url = URL(string: "\(scheme)://\(authority)\(path)")
        } else if let baseURL {
            url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + (path.hasPrefix("/") ? path : "/" + path))
        } else {
            url = URL(string: path)
        }
        guard let url else { throw FerryError(.invalidURL("no URL in the request's scheme, authority and path")) }
        self.init(HTTPMethod(rawValue: request.method.rawValue), url: url, headers: HTTPHeaders(request.headerFields))
        self.body = body
    }
}

extension HTTPRequest {
    /// A swift-http-types request for `request`: method, scheme, authority, path with query, and fields in order.
    /// - Parameter request: Ferry's request (its body is not part of an `HTTPRequest`).
    /// - Throws: ``FerryError/Reason/invalidRequest(_:)`` for a method or field name that is not an HTTP token.
    public init(_ request: Request) throws(FerryError) {
        guard let method = HTTPRequest.Method(request.method.rawValue) else {
            throw FerryError(.invalidRequest("\"\(request.method.rawValue)\" is not a valid method"), request: request)
        }
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true)
        var path = components?.percentEncodedPath ?? "/"
        if path.isEmpty { path = "/" }
        if let query = components?.percentEncodedQuery { path += "?" + query }
        let authority = components.flatMap { components in
            components.percentEncodedHost.map { host in components.port.map { "\(host):\($0)" } ?? host }
        }
        self.init(
            method: method, scheme: request.url.scheme, authority: authority, path: path,
            headerFields: try HTTPFields(request.headers))
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
#endif
