import Foundation
import Synchronization

/// Keeps the cookies servers set and sends them back (RFC 6265), for a ``Session`` that asks for it.
///
/// A session has no jar by default: a server calling other services rarely wants one, and a shared jar would mix
/// the cookies of unrelated callers. An app sets ``Session/Configuration/cookieJar``:
///
/// ```swift
/// let jar = CookieJar()
/// var configuration = Session.Configuration()
/// configuration.cookieJar = jar
/// let session = Session(configuration: configuration)
/// ```
///
/// Then, on every transport, each response's `Set-Cookie` fields are stored (redirect responses' too), and each
/// request, and each redirect it follows, gets a `Cookie` field with the jar's cookies for that hop's URL. The jar is
/// safe to share between sessions and tasks; it lives in memory only.
///
/// What it follows: domain and path matching (a cookie without `Domain` goes back to its host only; a `Domain`
/// the host is not in, or of a single label such as `com`, is refused; an IP address matches only itself); `Secure`
/// cookies go over HTTPS, and over plain HTTP to this machine only (`localhost`, `127.0.0.0/8`, `::1`), as in
/// browsers; `Max-Age` wins over `Expires`, and `Max-Age=0` or an `Expires` in the past deletes the cookie;
/// `HttpOnly` and `SameSite` are kept on the ``Cookie`` but change nothing. There is no public suffix list: a server
/// at `a.example.co.uk` can set a cookie for `co.uk`. ``Limits`` bound its memory.
public final class CookieJar: Sendable {
    /// How much the jar keeps.
    public let limits: Limits
    private let now: @Sendable () -> Date
    private let storage: Locked<CookieStorage>

    /// Creates an empty jar.
    /// - Parameters:
    ///   - limits: How much it keeps; ``Limits/init(maximumCookieSize:maximumCookiesPerDomain:maximumCookieCount:)``
    ///     by default.
    ///   - now: Where it reads the time, for expiry and creation dates; the system clock by default. Tests pass a
    ///     clock they move by hand.
    public init(limits: Limits = Limits(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.limits = limits
        self.now = now
        storage = Locked(CookieStorage(limits: limits))
    }

    /// The cookies a request to `url` sends, in the order they are sent: longer paths first, then older ones.
    /// - Parameter url: The request's URL.
    /// - Returns: The cookies; none for a URL that is not HTTP(S).
    public func cookies(for url: URL) -> [Cookie] {
        guard let origin = CookieOrigin(url) else { return [] }
        let now = now()
        return storage.withLock { $0.cookies(for: origin, now: now) }
    }

    /// Every cookie in the jar that has not expired, oldest first.
    public var allCookies: [Cookie] {
        let now = now()
        return storage.withLock { $0.allCookies(now: now) }
    }

    /// Stores the cookies of a response's `Set-Cookie` fields, as a session does for every response.
    /// - Parameters:
    ///   - setCookieFields: The values of the `Set-Cookie` fields, one cookie each.
    ///   - url: The URL of the request the response answers.
    /// - Returns: The cookies stored; a field that is invalid, deletes a cookie or is refused is left out.
    @discardableResult
    public func store(setCookieFields: some Sequence<String>, for url: URL) -> [Cookie] {
        guard let origin = CookieOrigin(url) else { return [] }
        let now = now()
        let cookies = setCookieFields.compactMap {
            SetCookieParser.cookie(from: $0, url: url, now: now, maximumSize: limits.maximumCookieSize)
        }
        guard !cookies.isEmpty else { return [] }
        return storage.withLock { storage in
            cookies.filter { storage.store($0, now: now, fromInsecureOrigin: !origin.isSecure) }
        }
    }

    /// Stores `cookie` as if a server had set it, replacing the one with the same name, domain and path.
    ///
    /// The jar sets its ``Cookie/creationDate``. A cookie that has already expired removes the one it replaces.
    /// - Parameter cookie: The cookie.
    /// - Returns: Whether it was stored: `false` when it has expired, has an empty name, a name or value with `;`
    ///   or a control character (or `=` in the name), an empty domain, a path not starting with `/`, or is over the
    ///   size limit.
    @discardableResult
    public func setCookie(_ cookie: Cookie) -> Bool {
        var cookie = cookie
        cookie.domain = Self.canonicalDomain(cookie.domain)
        guard Self.isValid(cookie, maximumSize: limits.maximumCookieSize) else { return false }
        let now = now()
        cookie.creationDate = now
        return storage.withLock { $0.store(cookie, now: now) }
    }

    /// Removes the cookie with `cookie`'s name, domain and path.
    /// - Parameter cookie: The cookie, e.g. one of ``allCookies``.
    /// - Returns: Whether the jar had it.
    @discardableResult
    public func remove(_ cookie: Cookie) -> Bool {
        var cookie = cookie
        cookie.domain = Self.canonicalDomain(cookie.domain)
        return storage.withLock { [cookie] in $0.remove(cookie) }
    }

    /// Removes every cookie.
    public func removeAll() {
        storage.withLock { $0.removeAll() }
    }

    /// `domain` lowercased, without leading dots.
    static func canonicalDomain(_ domain: String) -> String {
        CookieOrigin.asciiLowercased(domain.utf8.drop { $0 == UInt8(ascii: ".") })
    }

    /// Whether `cookie` can be stored and sent: what ``setCookie(_:)`` checks.
    static func isValid(_ cookie: Cookie, maximumSize: Int) -> Bool {
        let name = cookie.name.utf8, value = cookie.value.utf8
        return !name.isEmpty && name.count + value.count <= maximumSize
            && !name.contains { SetCookieParser.isControl($0) || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "=") }
            && !value.contains { SetCookieParser.isControl($0) || $0 == UInt8(ascii: ";") }
            && !cookie.domain.isEmpty && cookie.domain.utf8.count <= SetCookieParser.maximumPathSize
            && cookie.path.utf8.first == UInt8(ascii: "/") && cookie.path.utf8.count <= SetCookieParser.maximumPathSize
            && !cookie.path.utf8.contains(where: SetCookieParser.isControl)
    }
}
