import Foundation

/// Turns a response body into a value.
///
/// Write your own in a few lines:
/// ```swift
/// struct LinesSerializer: ResponseSerializer {
///     func serialize(request: Request, response: HTTPResponse, data: Data) throws -> [String] {
///         String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
///     }
/// }
/// let lines = try await session.get(url).serializing(LinesSerializer())
/// ```
/// A thrown error becomes a ``FerryError`` with reason ``FerryError/Reason/serializationFailed`` (a thrown
/// `FerryError` is kept as it is). Serializers run after validation, in the awaiting task.
public protocol ResponseSerializer<Output>: Sendable {
    /// The value made.
    associatedtype Output: Sendable

    /// Makes the value.
    /// - Parameters:
    ///   - request: The request that was sent.
    ///   - response: The response head.
    ///   - data: The body; empty when there was none.
    /// - Returns: The value.
    /// - Throws: When the body cannot become a value.
    func serialize(request: Request, response: HTTPResponse, data: Data) throws -> Output
}

/// A decoder that reads a value from bytes: `JSONDecoder`, `PropertyListDecoder`, or your own.
public protocol DataDecoder: Sendable {
    /// Decodes a value.
    /// - Parameters:
    ///   - type: The type.
    ///   - data: The bytes.
    /// - Returns: The value.
    /// - Throws: A `DecodingError` or the decoder's own.
    func decode<Decoded: Decodable>(_ type: Decoded.Type, from data: Data) throws -> Decoded
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

/// A response type that can stand for an empty body (from `HEAD`, 204 or 205).
public protocol EmptyResponse {
    /// The value an empty body decodes to.
    static func emptyValue() -> Self
}

/// The value of an empty body: decode to `Empty` when a response has no content.
public struct Empty: Codable, Sendable, Hashable, EmptyResponse {
    /// Creates the value.
    public init() {}
    /// The value.
    public static let value = Empty()
    /// Returns ``value``.
    public static func emptyValue() -> Empty { value }
}

extension Optional: EmptyResponse {
    /// `nil`: an empty body decodes to `nil`.
    public static func emptyValue() -> Optional { nil }
}

/// Why a built-in serializer failed; the underlying error of a ``FerryError/Reason/serializationFailed``.
public struct SerializationFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Creates a failure.
    /// - Parameter description: What went wrong.
    public init(_ description: String) { self.description = description }
}

extension Data {
    /// Whether this body counts as empty for JSON: no bytes, or a single space (what Rails sends for `head :ok`).
    var isEmptyForJSON: Bool { isEmpty || (count == 1 && first == UInt8(ascii: " ")) }
}
