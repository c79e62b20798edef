/// One header field: a name and a value.
public struct HTTPHeader: Hashable, Sendable, CustomStringConvertible {
    /// The field name as given; compared case-insensitively.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a header field.
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `"Name: value"`.
    public var description: String { "\(name): \(value)" }
}

/// An ordered list of header fields whose names are compared case-insensitively.
///
/// Order and repeated fields are kept as given. Reading a name joins repeated values with `", "`; setting a name
/// replaces every field of that name.
public struct HTTPHeaders: Hashable, Sendable, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    private var fields: [HTTPHeader]

    /// Creates an empty list.
    public init() { fields = [] }

    /// Creates a list from fields, in order.
    /// - Parameter fields: The fields.
    public init(_ fields: [HTTPHeader]) { self.fields = fields }

    /// Creates a list from name–value pairs, in order.
    /// - Parameter elements: The pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { HTTPHeader(name: $0.0, value: $0.1) }
    }

    /// Creates a list from fields, in order.
    /// - Parameter elements: The fields.
    public init(arrayLiteral elements: HTTPHeader...) { fields = elements }

    /// The value of every field named `name`, joined with `", "`, or `nil` when there is none.
    /// Setting replaces every such field; setting `nil` removes them.
    public subscript(name: String) -> String? {
        get {
            // One field, the common case, is returned as it is: no array, no joined copy.
            guard let first = fields.firstIndex(where: { $0.name.equalsIgnoringASCIICase(name) }) else { return nil }
            let rest = fields[(first + 1)...]
            guard rest.contains(where: { $0.name.equalsIgnoringASCIICase(name) }) else { return fields[first].value }
            return values(for: name).joined(separator: ", ")
        }
        set {
            if let newValue { update(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// The values of every field named `name`, in order.
    /// - Parameter name: The field name, compared case-insensitively.
    /// - Returns: The values; empty when there is none.
    public func values(for name: String) -> [String] {
        fields.compactMap { $0.name.equalsIgnoringASCIICase(name) ? $0.value : nil }
    }

    /// Whether a field named `name` is present.
    /// - Parameter name: The field name, compared case-insensitively.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Makes room for `count` fields, for a transport converting an engine's head.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Appends a field, keeping any others of the same name.
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    public mutating func add(name: String, value: String) {
        fields.append(HTTPHeader(name: name, value: value))
    }

    /// Replaces every field named `name` with one field, in the place of the first.
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The new value.
    public mutating func update(name: String, value: String) {
        guard let first = fields.firstIndex(where: { $0.name.equalsIgnoringASCIICase(name) }) else {
            fields.append(HTTPHeader(name: name, value: value))
            return
        }
        fields[first] = HTTPHeader(name: name, value: value)
        var index = fields.index(after: first)
        while index < fields.endIndex {
            if fields[index].name.equalsIgnoringASCIICase(name) { fields.remove(at: index) } else { index += 1 }
        }
    }

    /// Removes every field named `name`.
    /// - Parameter name: The field name, compared case-insensitively.
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Returns these fields with `defaults` added for every name not already present.
    /// - Parameter defaults: The fields to fall back to.
    /// - Returns: The merged list: these fields first, then the missing defaults.
    public func merging(defaults: HTTPHeaders) -> HTTPHeaders {
        // Without fields of its own a request shares the defaults' storage.
        if fields.isEmpty { return defaults }
        var merged = self
        merged.fields.reserveCapacity(fields.count + defaults.fields.count)
        for field in defaults.fields where !contains(field.name) {
            merged.fields.append(field)
        }
        return merged
    }
}

extension HTTPHeaders: RandomAccessCollection {
    /// The position of the first field.
    public var startIndex: Int { fields.startIndex }
    /// The position past the last field.
    public var endIndex: Int { fields.endIndex }
    /// The field at `position`.
    public subscript(position: Int) -> HTTPHeader { fields[position] }
}

extension HTTPHeaders: CustomStringConvertible {
    /// One `Name: value` line per field.
    public var description: String { fields.map(\.description).joined(separator: "\n") }
}

extension String {
    /// Compares two strings ignoring the case of ASCII letters, without allocating.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        let lhs = utf8, rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        // Native and small strings compare their bytes in place; bridged ones go through the views.
        let compared = lhs.withContiguousStorageIfAvailable { left in
            rhs.withContiguousStorageIfAvailable { right in
                left.indices.allSatisfy { Self.equalIgnoringASCIICase(left[$0], right[$0]) }
            }
        }
        if let compared, let result = compared { return result }
        return zip(lhs, rhs).allSatisfy(Self.equalIgnoringASCIICase)
    }

    private static func equalIgnoringASCIICase(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A)
    }
}
