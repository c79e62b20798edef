import Foundation

/// A request with every session default resolved, once: absolute URL, merged and validated headers, encoded body,
/// timeouts, redirect policy and body limit. What the rest of the pipeline reads; nothing merges defaults again.
struct PreparedRequest: Sendable {
    /// The request as transports see it (its optional settings filled in too, for responses and errors).
    var request: Request
    var idleTimeout: Duration?
    var totalTimeout: Duration?
    var redirectPolicy: RedirectPolicy
    var maximumBodySize: Int64
    /// The session's interceptors, then the request's.
    var interceptors: [any RequestInterceptor]

    /// Whether the body is a stream that can be read only once, so the request cannot be sent again.
    var hasOneShotBody: Bool {
        if case .content(.stream)? = request.body?.storage { true } else { false }
    }
}

extension Pipeline {
    /// Applies the session's defaults and checks the request.
    func prepare(_ original: Request) throws(FerryError) -> PreparedRequest {
        var request = original
        request.url = try resolve(original.url)
        if let defaultHeadersError { throw defaultHeadersError }
        try original.headers.validate()
        request.headers = original.headers.merging(defaults: configuration.headers)
        if let body = original.body {
            switch body.storage {
            case .failure(let error):
                throw error.adding(request: request, response: nil, body: nil)
            case .form(let pairs) where request.method.encodesParametersInQuery:
                request.appendPercentEncodedQuery(FormURLEncoding.query(pairs))
                request.body = nil
            case .form, .content:
                if let contentType = body.contentType, !request.headers.contains("Content-Type") {
                    request.headers.add(name: "Content-Type", value: contentType)
                }
            }
        }
        let idle = original.idleTimeout ?? configuration.idleTimeout
        let total = original.totalTimeout ?? configuration.totalTimeout
        let policy = original.redirectPolicy ?? configuration.redirectPolicy
        let limit = original.maximumBodySize ?? configuration.maximumBodySize
        request.idleTimeout = idle
        request.totalTimeout = total
        request.redirectPolicy = policy
        request.maximumBodySize = limit
        // Joined only when the request has its own: a request without allocates nothing here.
        let interceptors =
            original.interceptors.isEmpty
            ? configuration.interceptors : configuration.interceptors + original.interceptors
        return PreparedRequest(
            request: request, idleTimeout: idle, totalTimeout: total, redirectPolicy: policy, maximumBodySize: limit,
            interceptors: interceptors)
    }
}

extension Pipeline {
    /// The one place a URL is resolved and checked: against the base URL when it has no scheme, then as an
    /// absolute `http` or `https` URL with a host. Preparing a request calls it, and so does adapting one (an
    /// interceptor may change the URL).
    /// - Throws: ``FerryError/Reason/invalidURL(_:)``.
    func resolve(_ url: URL) throws(FerryError) -> URL {
        try url.url(relativeTo: configuration.baseURL)
    }
}
