extension JSON: ExpressibleByStringLiteral {
    /// Creates a string value from a literal.
    /// - Parameter value: The literal's text.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSON: ExpressibleByIntegerLiteral {
    /// Creates an exact integer number from a literal.
    /// - Parameter value: The literal's value.
    public init(integerLiteral value: Int64) {
        self = .number(JSONNumber(value))
    }
}

extension JSON: ExpressibleByFloatLiteral {
    /// Creates a floating-point number from a literal.
    /// - Parameter value: The literal's value.
    public init(floatLiteral value: Double) {
        self = .number(JSONNumber(value))
    }
}

extension JSON: ExpressibleByBooleanLiteral {
    /// Creates `true` or `false` from a literal.
    /// - Parameter value: The literal's value.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSON: ExpressibleByArrayLiteral {
    /// Creates an array from a literal.
    /// - Parameter elements: The array's elements, in order.
    public init(arrayLiteral elements: JSON...) {
        self = .array(elements)
    }
}

extension JSON: ExpressibleByDictionaryLiteral {
    /// Creates an object from a literal; a repeated key keeps its last value.
    /// - Parameter elements: The object's members.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSON: ExpressibleByNilLiteral {
    /// Creates `null` from `nil`; where a `JSON?` is expected, `nil` still means `Optional.none`.
    /// - Parameter nilLiteral: The `nil` literal.
    public init(nilLiteral: ()) {
        self = .null
    }
}
