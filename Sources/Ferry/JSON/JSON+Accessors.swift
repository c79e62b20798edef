extension JSON {
    /// The string, or `nil` unless this is a string.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The Boolean, or `nil` unless this is `true` or `false`.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The number, or `nil` unless this is a number.
    public var numberValue: JSONNumber? {
        guard case .number(let value) = self else { return nil }
        return value
    }

    /// The number as an `Int`, or `nil` unless this is an integer an `Int` holds exactly (`2.0` counts).
    public var intValue: Int? {
        numberValue?.intValue
    }

    /// The number as an `Int64`, or `nil` unless this is an integer an `Int64` holds exactly.
    public var int64Value: Int64? {
        numberValue?.int64Value
    }

    /// The number as a `Double`, or `nil` unless this is a number.
    public var doubleValue: Double? {
        numberValue?.doubleValue
    }

    /// The elements, or `nil` unless this is an array.
    public var arrayValue: [JSON]? {
        guard case .array(let value) = self else { return nil }
        return value
    }

    /// The members, or `nil` unless this is an object.
    public var objectValue: [String: JSON]? {
        guard case .object(let value) = self else { return nil }
        return value
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        self == .null
    }
}
