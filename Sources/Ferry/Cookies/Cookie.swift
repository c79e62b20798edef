import Foundation

/// An HTTP cookie as a ``CookieJar`` keeps it (RFC 6265 §5.3): a name and value, where it is sent, until when, and
/// its attributes.
///
/// A cookie is identified by its ``name``, ``domain`` and ``path``: a new cookie with the same three replaces the
/// old one.
public struct Cookie: Sendable, Hashable {
    /// The cookie's name: `id` in `Set-Cookie: id=42`.
    public var name: String
    /// The cookie's value, as the server sent it (double quotes around it are part of it).
    public var value: String
    /// The host the cookie is sent to (when ``isHostOnly``) or the domain it is sent to with every subdomain:
    /// lowercased, without a leading dot.
    public var domain: String
    /// The path the cookie is sent to, with every path below it: `/` for the whole site.
    public var path: String
    /// When the cookie expires; `nil` for a session cookie, which lasts as long as the jar.
    public var expires: Date?
    /// Whether the cookie is sent only over a secure connection (`Secure`): HTTPS, or HTTP to this machine.
    public var isSecure: Bool
    /// Whether the server marked the cookie `HttpOnly`. Ferry only speaks HTTP, so the cookie is sent all the same;
    /// the attribute is kept for code that hands cookies on.
    public var isHTTPOnly: Bool
    /// The `SameSite` attribute, when the server set one Ferry knows. Kept, not enforced: Ferry has no notion of the
    /// site a request comes from.
    public var sameSite: SameSite?
    /// Whether the cookie is sent to ``domain`` exactly (no `Domain` attribute) rather than to its subdomains too.
    public var isHostOnly: Bool
    /// When the cookie was first stored; a replacement keeps the date of the cookie it replaces. Of two cookies with
    /// paths of the same length, the older is sent first.
    public var creationDate: Date

    /// Creates a cookie.
    /// - Parameters:
    ///   - name: The name; not empty, without `=`, `;` or control characters.
    ///   - value: The value; without `;` or control characters.
    ///   - domain: The host (or, with `isHostOnly` false, the domain) the cookie is sent to.
    ///   - path: The path the cookie is sent to, with the paths below it; `/` by default.
    ///   - expires: When the cookie expires; `nil` (the default) for a session cookie.
    ///   - isSecure: Whether it is sent only over a secure connection.
    ///   - isHTTPOnly: Whether it is marked `HttpOnly`.
    ///   - sameSite: The `SameSite` attribute.
    ///   - isHostOnly: Whether it is sent to `domain` only, not its subdomains; `true` by default.
    ///   - creationDate: When it was created; a ``CookieJar`` sets it again when it stores the cookie.
    public init(
        name: String, value: String, domain: String, path: String = "/", expires: Date? = nil, isSecure: Bool = false,
        isHTTPOnly: Bool = false, sameSite: SameSite? = nil, isHostOnly: Bool = true, creationDate: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.expires = expires
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.isHostOnly = isHostOnly
        self.creationDate = creationDate
    }

    /// Whether the cookie has expired at `now`.
    func isExpired(at now: Date) -> Bool {
        guard let expires else { return false }
        return expires <= now
    }

    /// Whether `other` is the same cookie: the same name, domain and path.
    func isSameCookie(as other: Cookie) -> Bool {
        name == other.name && domain == other.domain && path == other.path
    }
}
