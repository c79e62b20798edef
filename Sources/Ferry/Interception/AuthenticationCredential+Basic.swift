import Foundation

extension AuthenticationCredential {
    /// Basic authentication (RFC 7617): `Basic ` followed by the base64 of `username:password` in UTF-8.
    ///
    /// Both strings are put in Unicode Normalization Form C first, as RFC 7617 asks of UTF-8 credentials, so a
    /// precomposed `é` and an `e` followed by a combining accent send the same bytes.
    ///
    /// A colon in the user name, or a control character (U+0000–U+001F, U+007F) in either string, cannot be sent
    /// faithfully: the server splits at the first colon, so `a:b` with password `c` would arrive as user `a` with
    /// password `b:c`, and RFC 7617 forbids control characters. Rather than send another user's credentials, this
    /// throws. A colon in the password is fine.
    ///
    /// Give it to an ``AuthenticationInterceptor`` whose `refresh` asks for the password again after a 401; for a
    /// fixed user and password, a session-wide header does the same with less:
    ///
    /// ```swift
    /// var configuration = Session.Configuration()
    /// let basic = try HTTPHeader.authorization(username: "ada", password: "secret")
    /// configuration.headers.update(name: basic.name, value: basic.value)  // keeps the default User-Agent
    /// ```
    ///
    /// - Parameters:
    ///   - username: The user name (RFC 7617's user-id); no colon, no control character.
    ///   - password: The password; no control character.
    /// - Returns: `Authorization: Basic <base64>`, which does not expire.
    /// - Throws: ``FerryError`` with reason ``FerryError/Reason/invalidRequest(_:)`` when the user name contains a
    ///   colon or either string a control character. The message names the problem, never the password.
    public static func basic(username: String, password: String) throws(FerryError) -> AuthenticationCredential {
        AuthenticationCredential(authorization: try BasicAuthorization.value(username: username, password: password))
    }
}

/// The `Authorization` value of Basic authentication, shared by ``AuthenticationCredential/basic(username:password:)``
/// and ``HTTPHeader/authorization(username:password:)``.
enum BasicAuthorization {
    /// `Basic <base64(username:password)>`, both in NFC and UTF-8.
    /// - Throws: ``FerryError`` (``FerryError/Reason/invalidRequest(_:)``) for a colon in the user name or a control
    ///   character in either string.
    static func value(username: String, password: String) throws(FerryError) -> String {
        let username = username.precomposedStringWithCanonicalMapping
        let password = password.precomposedStringWithCanonicalMapping
        if username.utf8.contains(UInt8(ascii: ":")) {
            throw FerryError(
                .invalidRequest("a Basic authentication user name cannot contain a colon (RFC 7617)"))
        }
        if username.utf8.contains(where: \.isASCIIControl) {
            throw FerryError(
                .invalidRequest("a Basic authentication user name cannot contain a control character (RFC 7617)"))
        }
        if password.utf8.contains(where: \.isASCIIControl) {
            throw FerryError(
                .invalidRequest("a Basic authentication password cannot contain a control character (RFC 7617)"))
        }
        return "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }
}

extension UInt8 {
    /// Whether this byte is a `CTL` of RFC 5234: 0x00–0x1F or 0x7F. In UTF-8 no other byte encodes those.
    fileprivate var isASCIIControl: Bool { self < 0x20 || self == 0x7F }
}
