import Foundation

#if Logging
public import Logging
#endif

/// A request as a value: method, URL, headers, body and per-request options.
///
/// Options left `nil` take the session's ``Session/Configuration`` value.
public struct Request: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The URL. A URL without a scheme is resolved against the session's base URL.
    public var url: URL
    /// The headers; the session's default headers fill in names missing here.
    public var headers: HTTPHeaders
    /// The body, if any.
    public var body: RequestBody?
    /// The longest time without any byte moving before the request fails, or `nil` for the session's.
    public var idleTimeout: Duration?
    /// The longest time the whole request may take, redirects included, or `nil` for the session's.
    public var totalTimeout: Duration?
    /// How redirects are followed, or `nil` for the session's policy.
    public var redirectPolicy: RedirectPolicy?
    /// The largest body, in bytes, the response may have, or `nil` for the session's limit.
    public var maximumBodySize: Int64?
    /// Interceptors for this request alone, run after the session's (``Session/Configuration/interceptors``).
    public var interceptors: [any RequestInterceptor] = []

    #if Logging
    /// The logger a ``LoggingEventMonitor`` writes this request's lines to instead of its own, so an upstream call
    /// is logged with the metadata of whatever made it (the `Logging` trait).
    public var logger: Logger?
    #endif

    /// Creates a request.
    /// - Parameters:
    ///   - method: The method; `GET` by default.
    ///   - url: The URL.
    ///   - headers: The headers.
    ///   - body: The body.
    public init(_ method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: RequestBody? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Appends query items to the URL, percent-escaping every character outside RFC 3986's unreserved set.
    /// - Parameter items: The items; an item whose value is `nil` is written as its name alone.
    public mutating func appendQuery(_ items: [URLQueryItem]) {
        guard !items.isEmpty else { return }
        let encoded = items.map { item in
            let name = FormURLEncoding.percentEscape(item.name)
            guard let value = item.value else { return name }
            return "\(name)=\(FormURLEncoding.percentEscape(value))"
        }
        appendPercentEncodedQuery(encoded.joined(separator: "&"))
    }

    /// Appends an already percent-encoded query to the URL.
    mutating func appendPercentEncodedQuery(_ query: String) {
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return }
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + query
        } else {
            components.percentEncodedQuery = query
        }
        guard let newURL = components.url else { return }
        url = newURL
    }
}
