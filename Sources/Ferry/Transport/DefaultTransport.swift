extension Session.Configuration {
    /// The transport a configuration gets when it is given none.
    ///
    /// - With the `AsyncHTTPClient` package trait on, on Linux (and any platform without Apple's networking stack):
    ///   a new `AsyncHTTPClientTransport`. A server that turns the trait on gets the engine built for servers for
    ///   every session it makes, without passing a transport each time; FoundationNetworking's hazards
    ///   (<doc:Linux>) and the TLS, proxy and connection settings it cannot honour stay out of its way.
    /// - Otherwise, and always on Apple platforms: a new ``URLSessionTransport``. There it is the system's networking
    ///   stack, with the system's trust settings, proxies and HTTP/3; AsyncHTTPClient stays one argument away.
    ///
    /// Either way the transport is the session's own: ``Session/shutdown(cancellingInFlightRequests:)`` releases it.
    public static func makeDefaultTransport() -> any Transport {
        #if AsyncHTTPClient && !canImport(Darwin)
        AsyncHTTPClientTransport()
        #else
        URLSessionTransport()
        #endif
    }
}
