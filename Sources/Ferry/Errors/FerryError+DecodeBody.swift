import Foundation

extension FerryError {
    /// Decodes the response body this error carries, typically the error document of an API:
    ///
    /// ```swift
    /// do {
    ///     let user = try await session.get("users/7").serializingDecodable(User.self)
    /// } catch {
    ///     let problem = try error.decodeBody(as: APIError.self)
    /// }
    /// ```
    ///
    /// An error keeps only the first ``bodyPrefixLimit`` bytes (2 KiB) of a body, in ``bodyPrefix``: enough for the
    /// error documents of most APIs. A longer body fails to decode, and the error says the body was cut; to decode
    /// one, opt out of validation with `unvalidated()` and decode the response's whole body.
    /// - Parameters:
    ///   - type: The type to decode, such as your API's error document.
    ///   - decoder: The decoder; a `JSONDecoder` by default.
    /// - Returns: The decoded value.
    /// - Throws: ``FerryError`` with reason ``Reason/serializationFailed``, carrying this error's request and
    ///   response: when there is no body (this error in ``underlyingError``), or when the decoder fails (its error
    ///   in ``underlyingError``).
    public func decodeBody<Decoded: Decodable>(
        as type: Decoded.Type = Decoded.self, using decoder: some DataDecoder = JSONDecoder()
    ) throws(FerryError) -> Decoded {
        guard let bodyPrefix, !bodyPrefix.isEmpty else {
            var failure = FerryError(.serializationFailed, request: request, response: response, underlyingError: self)
            failure.detail = .noBodyToDecode
            throw failure
        }
        do {
            return try decoder.decode(type, from: bodyPrefix)
        } catch {
            var failure = FerryError(
                .serializationFailed, request: request, response: response, body: bodyPrefix, underlyingError: error)
            if !bodyIsComplete { failure.detail = .bodyPrefixMayBeTruncated }
            throw failure
        }
    }
}
