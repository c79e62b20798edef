import Foundation

/// What an ``AuthenticationInterceptor`` sends: an `Authorization` value and when it stops being valid.
public struct AuthenticationCredential: Sendable, Hashable {
    /// The `Authorization` header value, such as `Bearer eyJ…`.
    public var authorization: String
    /// When the credential expires, if it does.
    public var expiration: Date?

    /// Creates a credential.
    /// - Parameters:
    ///   - authorization: The `Authorization` header value.
    ///   - expiration: When it expires, or `nil` when it does not.
    public init(authorization: String, expiration: Date? = nil) {
        self.authorization = authorization
        self.expiration = expiration
    }

    /// A bearer token (RFC 6750).
    /// - Parameters:
    ///   - token: The token.
    ///   - expiration: When it expires, or `nil`.
    /// - Returns: `Authorization: Bearer <token>`.
    public static func bearer(_ token: String, expiration: Date? = nil) -> AuthenticationCredential {
        AuthenticationCredential(authorization: "Bearer \(token)", expiration: expiration)
    }

    /// Whether the credential expires within `window` of `now` (or already has).
    /// - Parameters:
    ///   - window: How long before its expiration a credential is refreshed.
    ///   - now: The current time.
    /// - Returns: `true` when it should be refreshed before use.
    public func expires(within window: Duration, of now: Date) -> Bool {
        guard let expiration else { return false }
        let (seconds, attoseconds) = window.components
        return expiration.timeIntervalSince(now) <= Double(seconds) + Double(attoseconds) / 1e18
    }
}
