import Foundation

/// A response head as a cache keeps it, with what it needs to judge it later.
///
/// The body is not here: a store will keep it beside the head. The times are the cache's own clock, taken by the
/// caller, never read here (RFC 9111 §4.2.3 names them `request_time` and `response_time`).
struct StoredResponse: Sendable, Hashable {
    /// The header fields of the request that got the response; `Vary` compares against them (§4.1).
    var requestHeaders: HTTPHeaders {
        didSet { derive() }
    }
    /// The response head, as stored (see ``StoredHeaders/forStorage(_:)``).
    var response: HTTPResponse {
        didSet { derive() }
    }
    /// When the request that got this response was sent (`request_time`, §4.2.3).
    var requestTime: Date
    /// When this response was received (`response_time`, §4.2.3).
    var responseTime: Date {
        didSet { derive() }
    }

    // What the head says, read once when it is stored or changed rather than at every lookup: parsing the
    // directives and dates again at each lookup was most of a cache hit's time (`cached-sequential` in
    // Benchmarks/README.md, "The HTTP cache").

    /// The response's directives.
    private(set) var cacheControl = CacheControl(parsing: "")
    /// The stored request's secondary key for the response's `Vary` (§4.1).
    private(set) var varyKey = VaryKey.fields([:])
    /// The response's `Date` (`date_value`, §4.2.3), or, when it is missing or not an HTTP-date, the time the
    /// response was received: RFC 9110 §6.6.1 has a recipient without a `Date` record that time as if it were one.
    private(set) var dateValue = Date(timeIntervalSince1970: 0)
    private var ageValue: TimeInterval = 0
    private var privateLifetime = FreshnessLifetime(seconds: 0, source: .none)
    private var sharedLifetime = FreshnessLifetime(seconds: 0, source: .none)

    /// Creates a stored response.
    /// - Parameters:
    ///   - requestHeaders: The request's header fields.
    ///   - response: The response head.
    ///   - requestTime: When the request was sent.
    ///   - responseTime: When the response was received.
    init(requestHeaders: HTTPHeaders, response: HTTPResponse, requestTime: Date, responseTime: Date) {
        self.requestHeaders = requestHeaders
        self.response = response
        self.requestTime = requestTime
        self.responseTime = responseTime
        derive()
    }

    private mutating func derive() {
        cacheControl = CacheControl(responseHeaders: response.headers)
        varyKey = VaryKey(responseHeaders: response.headers, requestHeaders: requestHeaders)
        dateValue = HTTPDate.parse(response.headers["Date"] ?? "") ?? responseTime
        ageValue = ResponseAge.ageValue(of: response.headers)
        privateLifetime = FreshnessLifetime(
            response: response, directives: cacheControl, dateValue: dateValue, mode: .private)
        sharedLifetime = FreshnessLifetime(
            response: response, directives: cacheControl, dateValue: dateValue, mode: .shared)
    }

    /// How long this response is fresh for (§4.2.1).
    /// - Parameter mode: Whose cache it is.
    /// - Returns: The lifetime.
    func freshnessLifetime(mode: CacheMode) -> FreshnessLifetime {
        mode == .shared ? sharedLifetime : privateLifetime
    }

    /// How old this response is at `now` (§4.2.3).
    /// - Parameter now: The cache's current time.
    /// - Returns: The age, with every step of the computation.
    func age(now: Date) -> ResponseAge {
        ResponseAge(
            ageValue: ageValue, dateValue: dateValue, requestTime: requestTime, responseTime: responseTime, now: now)
    }
}
