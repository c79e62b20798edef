/// A JSON value: the six kinds of RFC 8259, with numbers that keep every `Int64` exactly.
///
/// Build values with literals (`["name": "Ferry", "tags": ["http", 1]]`), parse them with
/// `init(parsing:)`, read them with the subscripts and accessors, and write them with
/// ``encoded(pretty:sortedKeys:)``. `JSON` is also `Codable`, so it can stand in for an untyped part of a
/// model decoded with `JSONDecoder`.
public enum JSON: Sendable, Hashable {
    /// The JSON `null` literal.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, held as an exact `Int64` when it is an integer that fits, otherwise as a `Double`.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An ordered array of values.
    case array([JSON])
    /// An object; member order is not kept and a repeated name keeps its last value.
    case object([String: JSON])
}
