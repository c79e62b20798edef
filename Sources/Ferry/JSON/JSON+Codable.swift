import Foundation

extension JSON: Codable {
    /// Decodes any JSON value from a single-value container, trying null, Bool, Int64, Double, String,
    /// array and object in turn.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` if the value is none of these.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .number(JSONNumber(integer))
        } else if let double = try? container.decode(Double.self) {
            self = .number(JSONNumber(double))
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let elements = try? container.decode([JSON].self) {
            self = .array(elements)
        } else if let members = try? container.decode([String: JSON].self) {
            self = .object(members)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Expected null, a Bool, a number, a string, an array or an object")
        }
    }

    /// Encodes the value into a single-value container.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws, such as `EncodingError` for a non-finite `Double`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }

    /// Decodes a `Decodable` type from this value, by writing it as JSON and running `decoder` over the text.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder to use, with its strategies.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError` if the value does not fit `type`.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: encoded(sortedKeys: false))
    }
}
