import Foundation

/// Encodes an `Encodable` value into ordered name–value pairs for a query string or an
/// `application/x-www-form-urlencoded` body.
///
/// Properties become pairs in the order the value encodes them. Nested values get bracketed names
/// (`user[address][city]=Oslo`), arrays are named by ``arrayEncoding``, and `nil` optionals are left out.
/// The pairs are not yet percent-escaped; ``FormURLEncoding/query(_:spaces:)`` does that:
///
/// ```swift
/// let pairs = try FormEncoder().encode(Search(query: "ferry", tags: ["a", "b"]))
/// // [("query", "ferry"), ("tags[]", "a"), ("tags[]", "b")]
/// let query = FormURLEncoding.query(pairs) // "query=ferry&tags%5B%5D=a&tags%5B%5D=b"
/// ```
public struct FormEncoder: Sendable {
    /// How array elements are named.
    public enum ArrayEncoding: Sendable, Hashable {
        /// Empty brackets after the name: `a[]=1&a[]=2`.
        case brackets
        /// The bare name, repeated: `a=1&a=2`.
        case noBrackets
        /// The element's index in brackets: `a[0]=1&a[1]=2`.
        case indexInBrackets
    }

    /// How `Bool` values are written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `true` and `false`.
        case literal
        /// `1` and `0`.
        case numeric
    }

    /// How `Date` values are written.
    public enum DateEncoding: Sendable {
        /// ISO 8601 in UTC to the second, such as `2024-05-01T12:30:00Z`.
        case iso8601
        /// Seconds since 1970-01-01 UTC, without a fraction when the date falls on a whole second.
        case secondsSince1970
        /// Whole milliseconds since 1970-01-01 UTC, rounded to the nearest millisecond.
        case millisecondsSince1970
        /// Whatever `Date`'s own `Encodable` conformance writes (seconds since 2001-01-01).
        case deferredToDate
        /// The text a closure makes, such as `{ $0.formatted(.dateTime.year().month().day()) }`.
        case formatted(@Sendable (Date) -> String)
    }

    /// How `Data` values are written.
    public enum DataEncoding: Sendable, Hashable {
        /// Base64 text.
        case base64
        /// Whatever `Data`'s own `Encodable` conformance writes (an array of byte values).
        case deferredToData
    }

    /// How array elements are named; `.brackets` unless set.
    public var arrayEncoding: ArrayEncoding
    /// How `Bool` values are written; `.literal` unless set.
    public var boolEncoding: BoolEncoding
    /// How `Date` values are written; `.iso8601` unless set.
    public var dateEncoding: DateEncoding
    /// How `Data` values are written; `.base64` unless set.
    public var dataEncoding: DataEncoding

    /// Creates an encoder.
    /// - Parameters:
    ///   - arrayEncoding: How array elements are named.
    ///   - boolEncoding: How `Bool` values are written.
    ///   - dateEncoding: How `Date` values are written.
    ///   - dataEncoding: How `Data` values are written.
    public init(
        arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .literal,
        dateEncoding: DateEncoding = .iso8601,
        dataEncoding: DataEncoding = .base64
    ) {
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.dateEncoding = dateEncoding
        self.dataEncoding = dataEncoding
    }

    /// Encodes a value into name–value pairs, in the order the value encodes its properties.
    /// - Parameter value: A struct, class or dictionary, that is, a value that encodes into a keyed container.
    /// - Returns: The pairs, neither percent-escaped nor joined.
    /// - Throws: `EncodingError.invalidValue` if `value` is not keyed at the top level (a bare number, string,
    ///   array or `nil`) or holds a non-finite floating-point number; any error `value`'s `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> [(name: String, value: String)] {
        let root = FormNode()
        try FormValueEncoder(options: self, node: root, codingPath: []).encode(value, into: root, codingPath: [])
        let shape: String
        switch root.content {
        case .keyed, .empty:
            var pairs: [(name: String, value: String)] = []
            root.appendPairs(named: nil, arrayEncoding: arrayEncoding, to: &pairs)
            return pairs
        case .scalar: shape = "a single value"
        case .unkeyed: shape = "an array"
        case .null: shape = "nil"
        }
        throw EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: [],
                debugDescription: "FormEncoder needs a keyed value (a struct, class or dictionary) at the top level, "
                    + "but \(T.self) encoded \(shape)"))
    }
}
