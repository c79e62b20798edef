import Foundation

/// Where an ``HTTPCache`` keeps its responses: ``MemoryCacheStorage``, or a store of your own.
///
/// The cache files responses under a key, the request method and its normalised URI (`GET https://example.com/a`);
/// several responses may share a key when the server varies them (`Vary`). The cache decides what to keep, what may
/// answer and when to drop; a storage only keeps what it is given. It may forget any entry at any time (to stay
/// within its budget, after a crash): a missing entry is a miss, never an error.
public protocol CacheStorage: Sendable {
    /// The responses stored under `key`, in any order; none when there are none.
    /// - Parameter key: The primary key, such as `GET https://example.com/a`.
    func entries(for key: String) async -> [CachedResponse]

    /// Replaces the responses stored under `key` with `entries` (none removes the key).
    /// - Parameters:
    ///   - entries: The responses to keep.
    ///   - key: The primary key.
    func setEntries(_ entries: [CachedResponse], for key: String) async

    /// Removes every stored response.
    func removeAll() async
}

/// A stored response: the head, the body and what the cache needs to judge its age and whether it matches a new
/// request.
public struct CachedResponse: Sendable, Hashable {
    /// The head and what the cache's rules read from it, read once (``StoredResponse``).
    var stored: StoredResponse
    /// The body, decoded: in memory or in a file the store wrote.
    public var body: CachedBody

    /// The header fields of the request that got it, for matching its `Vary` (RFC 9111 §4.1).
    public var requestHeaders: HTTPHeaders {
        get { stored.requestHeaders }
        set { stored.requestHeaders = newValue }
    }
    /// The response head as received (the final one).
    public var response: HTTPResponse {
        get { stored.response }
        set { stored.response = newValue }
    }
    /// When the request that got it was sent (RFC 9111 §4.2.3's `request_time`).
    public var requestTime: Date {
        get { stored.requestTime }
        set { stored.requestTime = newValue }
    }
    /// When the response was received (`response_time`).
    public var responseTime: Date {
        get { stored.responseTime }
        set { stored.responseTime = newValue }
    }

    /// Creates a stored response.
    /// - Parameters:
    ///   - requestHeaders: The header fields of the request that got it.
    ///   - response: The response head.
    ///   - body: The body.
    ///   - requestTime: When the request was sent.
    ///   - responseTime: When the response was received.
    public init(
        requestHeaders: HTTPHeaders, response: HTTPResponse, body: CachedBody, requestTime: Date, responseTime: Date
    ) {
        stored = StoredResponse(
            requestHeaders: requestHeaders, response: response, requestTime: requestTime, responseTime: responseTime)
        self.body = body
    }

    /// A stored response with the head already read (a store reading its own records).
    init(stored: StoredResponse, body: CachedBody) {
        self.stored = stored
        self.body = body
    }

    /// What keeping one response in memory costs beyond its body and header fields: the strings' and arrays' own
    /// storage, the URL, the directives read once, the store's bookkeeping. Measured with `distinct-urls` (100,000
    /// small responses, Benchmarks/README.md, "The HTTP cache"): without it, a 10 MiB budget grew the process by
    /// 57 MiB.
    static let bookkeepingBytes = 2_048

    /// The bytes it occupies in memory, roughly: its body (when held in memory), its header fields, and
    /// ``bookkeepingBytes``.
    var cost: Int {
        Self.bookkeepingBytes + body.bytesInMemory
            + response.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            + requestHeaders.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }
}
