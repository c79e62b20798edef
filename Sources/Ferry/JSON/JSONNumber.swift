/// A JSON number that keeps integers exact: an `Int64` when the value is an integer in range, else a `Double`.
///
/// Numbers compare by value, so `JSONNumber(1)` equals `JSONNumber(1.0)` and both hash alike.
public struct JSONNumber: Sendable {
    enum Storage: Sendable {
        case int(Int64)
        case double(Double)
    }

    let storage: Storage

    /// Creates a number that holds an integer exactly.
    /// - Parameter value: The integer.
    public init(_ value: Int64) {
        storage = .int(value)
    }

    /// Creates a number that holds an integer exactly.
    /// - Parameter value: The integer.
    public init(_ value: Int) {
        storage = .int(Int64(value))
    }

    /// Creates a number that holds a floating-point value; non-finite values are written to JSON as `null`.
    /// - Parameter value: The floating-point value.
    public init(_ value: Double) {
        storage = .double(value)
    }

    /// The value as an `Int64`, or `nil` unless it is an integer that an `Int64` holds exactly.
    public var int64Value: Int64? {
        switch storage {
        case .int(let value): value
        case .double(let value): Int64(exactly: value)
        }
    }

    /// The value as an `Int`, or `nil` unless it is an integer that an `Int` holds exactly.
    public var intValue: Int? {
        int64Value.flatMap { Int(exactly: $0) }
    }

    /// The value as a `Double`, rounded to the nearest `Double` if it is an integer beyond 2^53.
    public var doubleValue: Double {
        switch storage {
        case .int(let value): Double(value)
        case .double(let value): value
        }
    }
}

extension JSONNumber: Hashable {
    /// Compares two numbers by value, so an integer equals the `Double` of the same value.
    /// - Parameters:
    ///   - lhs: A number.
    ///   - rhs: Another number.
    /// - Returns: `true` if both denote the same value (two NaNs count as equal, keeping `==` reflexive).
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.int(let left), .int(let right)):
            left == right
        case (.int(let integer), .double(let double)), (.double(let double), .int(let integer)):
            Int64(exactly: double) == integer
        case (.double(let left), .double(let right)):
            left == right || (left.isNaN && right.isNaN)
        }
    }

    /// Hashes the value so that equal numbers hash alike whatever their storage.
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .int(let value):
            hasher.combine(value)
        case .double(let value):
            if let integer = Int64(exactly: value) {
                hasher.combine(integer)
            } else if value.isNaN {
                hasher.combine(Double.nan.bitPattern)
            } else {
                hasher.combine(value)
            }
        }
    }
}

extension JSONNumber: CustomStringConvertible {
    /// The number as JSON writes it: `42`, `1.0`, `1e+100`; non-finite values print as Swift does (`inf`, `nan`).
    public var description: String {
        switch storage {
        case .int(let value): String(value)
        case .double(let value): value.description
        }
    }
}

extension JSONNumber: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// Creates an exact integer number from a literal.
    /// - Parameter value: The literal's value.
    public init(integerLiteral value: Int64) {
        self.init(value)
    }

    /// Creates a floating-point number from a literal.
    /// - Parameter value: The literal's value.
    public init(floatLiteral value: Double) {
        self.init(value)
    }
}

extension JSONNumber: Codable {
    /// Decodes a number, trying an exact `Int64` before a `Double`.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` if the value is not a number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            self.init(integer)
        } else {
            self.init(try container.decode(Double.self))
        }
    }

    /// Encodes the number as an `Int64` or a `Double`, whichever it holds.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws, such as `EncodingError` for a non-finite `Double`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch storage {
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        }
    }
}
