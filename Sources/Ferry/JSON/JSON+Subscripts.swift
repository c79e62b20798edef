extension JSON {
    /// The member named `key`, or `nil` unless this is an object that has it.
    ///
    /// Chains through optionals, so `json["args"]?["a"] == "1"` reads a nested member.
    /// - Parameter key: The member's name.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index`, or `nil` unless this is an array and `index` is in bounds.
    /// - Parameter index: The element's zero-based position.
    public subscript(index: Int) -> JSON? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
