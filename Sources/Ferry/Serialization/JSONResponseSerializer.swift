import Foundation

/// Parses the body as a ``JSON`` document.
///
/// An empty body gives `.null` for `HEAD`, 1xx, 204, 205 and 304; a body of a single space always gives `.null`
/// (Rails answers `head :ok` with one). Any other empty body is an error.
public struct JSONResponseSerializer: ResponseSerializer {
    /// Creates the serializer.
    public init() {}

    /// Parses `data`.
    /// - Parameters:
    ///   - request: Its method decides whether an empty body is allowed.
    ///   - response: Its status decides whether an empty body is allowed.
    ///   - data: The body.
    /// - Returns: The document.
    /// - Throws: ``JSONParseError`` or ``SerializationFailure``.
    public func serialize(request: Request, response: HTTPResponse, data: Data) throws -> JSON {
        if data.isEmptyForJSON {
            if !data.isEmpty || response.permitsEmptyBody(for: request.method) { return .null }
            throw SerializationFailure("expected JSON, the body is empty")
        }
        return try JSON(parsing: data)
    }
}

extension ResponseSerializer where Self == JSONResponseSerializer {
    /// The body as a ``JSON`` document.
    public static var json: JSONResponseSerializer { JSONResponseSerializer() }
}
