import Foundation

/// Decodes the body with a ``DataDecoder`` (`JSONDecoder` by default).
///
/// An empty body (or a single space) decodes to ``EmptyResponse/emptyValue()`` when `Decoded` is an
/// ``EmptyResponse`` such as ``Empty`` or an `Optional`; for other types it is an error.
public struct DecodableResponseSerializer<Decoded: Decodable & Sendable>: ResponseSerializer {
    /// The decoder.
    public let decoder: any DataDecoder

    /// Creates the serializer.
    /// - Parameter decoder: The decoder; a `JSONDecoder` by default.
    public init(decoder: some DataDecoder = JSONDecoder()) { self.decoder = decoder }

    /// Decodes `data`.
    /// - Parameters:
    ///   - request: Unused.
    ///   - response: Unused.
    ///   - data: The body.
    /// - Returns: The value.
    /// - Throws: The decoder's error, or ``SerializationFailure`` for an empty body.
    public func serialize(request: Request, response: HTTPResponse, data: Data) throws -> Decoded {
        if data.isEmptyForJSON {
            if let empty = Decoded.self as? any EmptyResponse.Type, let value = empty.emptyValue() as? Decoded {
                return value
            }
            throw SerializationFailure("expected \(Decoded.self), the body is empty")
        }
        return try decoder.decode(Decoded.self, from: data)
    }
}

extension ResponseSerializer {
    /// The body decoded as `type`.
    /// - Parameters:
    ///   - type: The type.
    ///   - decoder: The decoder; a `JSONDecoder` by default.
    /// - Returns: The serializer.
    public static func decodable<Decoded>(
        _ type: Decoded.Type, decoder: some DataDecoder = JSONDecoder()
    ) -> DecodableResponseSerializer<Decoded> where Self == DecodableResponseSerializer<Decoded> {
        DecodableResponseSerializer(decoder: decoder)
    }
}
