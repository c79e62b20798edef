import Foundation

#if Logging
public import Logging
#endif

/// A request as a value: method, URL, headers, body and per-request options.
///
/// Options left `nil` take the session's ``Session/Configuration`` value.
public struct Request: Sendable {
    /// The fields, shared between copies until one is changed: a request is copied about ten times on its way
    /// through the pipeline (the transfer, the prepared request, each attempt and hop, the outcome, any error), and a
    /// copy costs one retain instead of one per field. Kept because the loopback benchmark shows it
    /// (`Benchmarks/README.md`, "One transfer, one vocabulary"): as a plain struct, Ferry on AsyncHTTPClient fell
    /// from 0.99× to 0.73× of the raw engine on sequential small GETs.
    private var storage: Storage

    /// The method.
    public var method: HTTPMethod {
        get { storage.method }
        _modify {
            makeUnique()
            yield &storage.method
        }
    }

    /// The URL. A URL without a scheme is resolved against the session's base URL.
    public var url: URL {
        get { storage.url }
        _modify {
            makeUnique()
            yield &storage.url
        }
    }

    /// The headers; the session's default headers fill in names missing here.
    public var headers: HTTPHeaders {
        get { storage.headers }
        _modify {
            makeUnique()
            yield &storage.headers
        }
    }

    /// The body, if any.
    public var body: RequestBody? {
        get { storage.body }
        _modify {
            makeUnique()
            yield &storage.body
        }
    }

    /// The longest time without any byte moving before the request fails, or `nil` for the session's.
    public var idleTimeout: Duration? {
        get { storage.idleTimeout }
        _modify {
            makeUnique()
            yield &storage.idleTimeout
        }
    }

    /// The longest time the whole request may take, redirects included, or `nil` for the session's.
    public var totalTimeout: Duration? {
        get { storage.totalTimeout }
        _modify {
            makeUnique()
            yield &storage.totalTimeout
        }
    }

    /// How redirects are followed, or `nil` for the session's policy.
    public var redirectPolicy: RedirectPolicy? {
        get { storage.redirectPolicy }
        _modify {
            makeUnique()
            yield &storage.redirectPolicy
        }
    }

    /// The largest body, in bytes, the response may have, or `nil` for the session's limit.
    public var maximumBodySize: Int64? {
        get { storage.maximumBodySize }
        _modify {
            makeUnique()
            yield &storage.maximumBodySize
        }
    }

    /// How this request uses the session's ``HTTPCache``, when it has one (``CachePolicy/useCache`` unless set).
    public var cachePolicy: CachePolicy {
        get { storage.cachePolicy }
        _modify {
            makeUnique()
            yield &storage.cachePolicy
        }
    }

    /// Interceptors for this request alone, run after the session's (``Session/Configuration/interceptors``).
    public var interceptors: [any RequestInterceptor] {
        get { storage.interceptors }
        _modify {
            makeUnique()
            yield &storage.interceptors
        }
    }

    #if Logging
    /// The logger a ``LoggingEventMonitor`` writes this request's lines to instead of its own, so an upstream call
    /// is logged with the metadata of whatever made it (the `Logging` trait).
    public var logger: Logger? {
        get { storage.logger }
        _modify {
            makeUnique()
            yield &storage.logger
        }
    }
    #endif

    /// Creates a request.
    /// - Parameters:
    ///   - method: The method; `GET` by default.
    ///   - url: The URL.
    ///   - headers: The headers.
    ///   - body: The body.
    public init(_ method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: RequestBody? = nil) {
        storage = Storage(method: method, url: url, headers: headers, body: body)
    }

    /// Gives this request fields of its own before one is changed.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
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

extension Request {
    /// A request's fields. Changed only after `makeUnique()`, that is only while one request holds it, which is what
    /// makes the unchecked `Sendable` sound (the type is private): a storage reachable from two requests (or two
    /// tasks) is never written.
    private final class Storage: @unchecked Sendable {
        var method: HTTPMethod
        var url: URL
        var headers: HTTPHeaders
        var body: RequestBody?
        var idleTimeout: Duration?
        var totalTimeout: Duration?
        var redirectPolicy: RedirectPolicy?
        var maximumBodySize: Int64?
        var interceptors: [any RequestInterceptor] = []
        var cachePolicy = CachePolicy.useCache
        #if Logging
        var logger: Logger?
        #endif

        init(method: HTTPMethod, url: URL, headers: HTTPHeaders, body: RequestBody?) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }

        func copy() -> Storage {
            let copy = Storage(method: method, url: url, headers: headers, body: body)
            copy.idleTimeout = idleTimeout
            copy.totalTimeout = totalTimeout
            copy.redirectPolicy = redirectPolicy
            copy.maximumBodySize = maximumBodySize
            copy.interceptors = interceptors
            copy.cachePolicy = cachePolicy
            #if Logging
            copy.logger = logger
            #endif
            return copy
        }
    }
}
