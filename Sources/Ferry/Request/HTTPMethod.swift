/// An HTTP request method such as `GET` or `POST`.
///
/// Methods are case-sensitive; the common ones are static members, others can be written as string literals.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent on the wire.
    public let rawValue: String

    /// Creates a method from its token.
    /// - Parameter rawValue: The method token, e.g. `"PROPFIND"`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a method from a string literal.
    /// - Parameter value: The method token.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The method token.
    public var description: String { rawValue }

    /// `GET`
    public static let get: HTTPMethod = "GET"
    /// `HEAD`
    public static let head: HTTPMethod = "HEAD"
    /// `POST`
    public static let post: HTTPMethod = "POST"
    /// `PUT`
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`
    public static let options: HTTPMethod = "OPTIONS"
    /// `TRACE`
    public static let trace: HTTPMethod = "TRACE"
    /// `CONNECT`
    public static let connect: HTTPMethod = "CONNECT"

    /// Whether form parameters of a request with this method belong in the query string rather than the body
    /// (`GET`, `HEAD` and `DELETE`).
    var encodesParametersInQuery: Bool { self == .get || self == .head || self == .delete }
}
