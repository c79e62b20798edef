extension HTTPHeader {
    /// An `Authorization` field for Basic authentication (RFC 7617), for one request.
    ///
    /// The value is the one ``AuthenticationCredential/basic(username:password:)`` makes, with the same rules:
    /// NFC, UTF-8, base64; a colon in the user name or a control character in either string throws.
    ///
    /// ```swift
    /// let me = try await session.get("me", headers: [.authorization(username: "ada", password: "secret")])
    /// ```
    ///
    /// For every request of a session, add it to ``Session/Configuration/headers`` with
    /// ``HTTPHeaders/update(name:value:)``.
    /// - Parameters:
    ///   - username: The user name; no colon, no control character.
    ///   - password: The password; no control character.
    /// - Returns: `Authorization: Basic <base64(username:password)>`.
    /// - Throws: ``FerryError`` with reason ``FerryError/Reason/invalidRequest(_:)`` when the user name contains a
    ///   colon or either string a control character.
    public static func authorization(username: String, password: String) throws(FerryError) -> HTTPHeader {
        HTTPHeader(name: "Authorization", value: try BasicAuthorization.value(username: username, password: password))
    }

    /// An `Authorization` field with a bearer token (RFC 6750): `Authorization: Bearer <token>`.
    ///
    /// The token is sent as it is; a token with CR, LF or NUL fails the request with
    /// ``FerryError/Reason/invalidRequest(_:)`` before anything is sent, as any such header value does.
    /// - Parameter bearerToken: The token.
    /// - Returns: The field, as ``AuthenticationCredential/bearer(_:expiration:)`` would set it.
    public static func authorization(bearerToken: String) -> HTTPHeader {
        HTTPHeader(name: "Authorization", value: AuthenticationCredential.bearer(bearerToken).authorization)
    }
}
