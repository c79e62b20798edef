extension CookieJar {
    /// How much a ``CookieJar`` keeps, so a server cannot make it grow without bound (RFC 6265 §6.1 asks for at least
    /// these).
    ///
    /// A cookie whose name and value are longer than ``maximumCookieSize`` is refused. When a domain has more than
    /// ``maximumCookiesPerDomain`` cookies, or the jar more than ``maximumCookieCount``, expired cookies are removed
    /// first, then the ones least recently sent or stored. A path or `Domain` longer than 1,024 bytes is ignored
    /// too, so the default limits hold at most about 18 MB.
    public struct Limits: Sendable, Hashable {
        /// The most bytes a cookie's name and value may have together: 4,096 by default.
        public var maximumCookieSize: Int
        /// The most cookies kept for one domain (or host): 50 by default.
        public var maximumCookiesPerDomain: Int
        /// The most cookies kept in all: 3,000 by default.
        public var maximumCookieCount: Int

        /// Creates limits.
        /// - Parameters:
        ///   - maximumCookieSize: The most bytes of a name and value together.
        ///   - maximumCookiesPerDomain: The most cookies for one domain.
        ///   - maximumCookieCount: The most cookies in all.
        public init(maximumCookieSize: Int = 4096, maximumCookiesPerDomain: Int = 50, maximumCookieCount: Int = 3000) {
            self.maximumCookieSize = maximumCookieSize
            self.maximumCookiesPerDomain = maximumCookiesPerDomain
            self.maximumCookieCount = maximumCookieCount
        }
    }
}
