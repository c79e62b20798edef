import Foundation

#if Tracing
public import Tracing
#endif

extension Session {
    /// How a session sends requests: defaults every request inherits, and the transport.
    public struct Configuration: Sendable {
        /// The URL that relative request URLs are appended to.
        public var baseURL: URL?
        /// Headers added to every request that does not set the same name.
        public var headers: HTTPHeaders
        /// The longest time without any byte moving before a request fails with
        /// ``FerryError/Reason/timedOut(_:)`` (``FerryError/TimeoutKind/idle``). 60 seconds by default.
        ///
        /// It counts only while the transport waits on the network: from the moment the request is handed to the
        /// transport, and not while Ferry's own steps run (the cache, interceptors, a retry's wait, a connection
        /// limit's queue) nor while the reader holds a chunk or a body that has fully arrived. The total timeout
        /// counts everything.
        public var idleTimeout: Duration
        /// The longest time a whole request may take, redirects included; `nil` (the default) for no limit.
        public var totalTimeout: Duration?
        /// How redirects are followed: up to 10 by default.
        public var redirectPolicy: RedirectPolicy
        /// What every response must satisfy before it is serialized: a 2xx status by default.
        public var validation: Validation
        /// The largest response body, in bytes, that is collected in memory. 1 GiB by default.
        public var maximumBodySize: Int64
        /// What moves the bytes: ``makeDefaultTransport()`` by default, which is `AsyncHTTPClientTransport` on Linux
        /// when the `AsyncHTTPClient` trait is on and ``URLSessionTransport`` otherwise.
        public var transport: any Transport
        /// Adapt every request before each attempt and decide retries, in order, before the request's own
        /// (``Request/interceptors``): a ``RetryPolicy``, an ``AuthenticationInterceptor``, your own. None by default.
        public var interceptors: [any RequestInterceptor]
        /// Where cookies are kept and sent from: `nil`, the default, sends only the `Cookie` fields requests set
        /// themselves. With a ``CookieJar``, every response's `Set-Cookie` fields are stored and every request and
        /// redirect hop gets the jar's cookies for its URL.
        public var cookieJar: CookieJar?
        /// The HTTP cache (RFC 9111) that answers and stores `GET` responses read into memory or downloaded to a
        /// file: `nil`, the default, for none, so every request goes to the server. See ``HTTPCache``.
        public var cache: HTTPCache?
        /// Receive every request's events, each on a task of its own; none by default.
        public var eventMonitors: [any EventMonitor]
        /// How many events may wait for one slow monitor before the newest are dropped; 10,000 by default.
        public var eventBufferLimit: Int = 10_000
        /// The most requests that may be in flight to one host (scheme, host and port) at once; `nil`, the default,
        /// for no limit. More wait in a queue, first come first served, and a cancelled one leaves it at once. A
        /// request holds its slot from the moment it is handed to the transport until its body is read (or it fails),
        /// gives it back while it waits to be retried, and moves to the new host's queue when redirected elsewhere.
        /// The wait shows in ``Timeline/queueWait`` and in each ``Timeline/Attempt``. Values below 1 count as 1.
        public var maximumRequestsPerHost: Int?
        /// The most requests that may be in flight at once over the whole session, whatever their hosts; `nil`, the
        /// default, for no limit. Shares the queue of ``maximumRequestsPerHost``: a waiting request whose host is
        /// full does not hold back a later one to another host. Values below 1 count as 1.
        public var maximumRequestsInFlight: Int?
        /// Header names whose values ``Session/cURLDescription(of:)`` hides: ``Request/sensitiveHeaderNames`` by
        /// default (`Authorization`, `Cookie`, `Proxy-Authorization`); add your API-key headers.
        public var redactedHeaderNames: Set<String> = Request.sensitiveHeaderNames
        /// Where the session's timeout timer reads the time: tests inject a clock they advance by hand.
        /// How long ``Session/shutdown(gracePeriod:)`` lets running requests finish when a service group shuts the
        /// session down (the `ServiceLifecycle` trait); 30 seconds by default.
        public var shutdownGracePeriod: Duration = .seconds(30)
        #if Tracing
        /// The tracer of the request spans (the `Tracing` trait); `nil`, the default, uses the bootstrapped
        /// `InstrumentationSystem.tracer`.
        public var tracer: (any Tracer)?
        #endif
        var timeoutClock: any TimeoutClock = SystemTimeoutClock()

        /// Creates a configuration.
        /// - Parameters:
        ///   - baseURL: The URL relative request URLs are appended to.
        ///   - headers: Default headers; ``defaultHeaders`` when omitted.
        ///   - idleTimeout: The idle timeout.
        ///   - totalTimeout: The total timeout, or `nil` for none.
        ///   - redirectPolicy: The redirect policy.
        ///   - validation: The default validation.
        ///   - maximumBodySize: The largest body collected in memory.
        ///   - transport: The transport; ``makeDefaultTransport()`` when omitted.
        ///   - interceptors: The session's interceptors, in order.
        ///   - eventMonitors: The session's event monitors.
        ///   - cookieJar: The cookie jar, or `nil` (the default) for none.
        ///   - cache: The HTTP cache, or `nil` (the default) for none.
        public init(
            baseURL: URL? = nil,
            headers: HTTPHeaders = Configuration.defaultHeaders,
            idleTimeout: Duration = .seconds(60),
            totalTimeout: Duration? = nil,
            redirectPolicy: RedirectPolicy = .follow(),
            validation: Validation = .successfulStatus,
            maximumBodySize: Int64 = 1 << 30,
            transport: (any Transport)? = nil,
            interceptors: [any RequestInterceptor] = [],
            eventMonitors: [any EventMonitor] = [],
            cookieJar: CookieJar? = nil,
            cache: HTTPCache? = nil
        ) {
            self.baseURL = baseURL
            self.headers = headers
            self.idleTimeout = idleTimeout
            self.totalTimeout = totalTimeout
            self.redirectPolicy = redirectPolicy
            self.validation = validation
            self.maximumBodySize = maximumBodySize
            self.transport = transport ?? Self.makeDefaultTransport()
            self.interceptors = interceptors
            self.eventMonitors = eventMonitors
            self.cookieJar = cookieJar
            self.cache = cache
        }

        /// `User-Agent: Ferry/<version>`, `Accept-Encoding: gzip, deflate` and an `Accept-Language` made from the
        /// user's preferred languages.
        public static var defaultHeaders: HTTPHeaders {
            var headers: HTTPHeaders = ["User-Agent": "Ferry/\(Session.version)", "Accept-Encoding": "gzip, deflate"]
            let languages = Locale.preferredLanguages.prefix(6).enumerated().map { index, language in
                index == 0 ? language : "\(language);q=\(String(format: "%.1f", 1.0 - Double(index) * 0.1))"
            }
            headers.add(name: "Accept-Language", value: languages.isEmpty ? "en" : languages.joined(separator: ", "))
            return headers
        }
    }
}
