/// Writes a keyed value's members into child nodes of one `FormNode`.
struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FormValueEncoder
    let node: FormNode
    let codingPath: [any CodingKey]

    private func child(_ key: Key) -> FormNode {
        node.child(forKey: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws {
        child(key).setNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        child(key).setScalar(encoder.text(for: value))
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        child(key).setScalar(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        child(key).setScalar(try encoder.text(for: value, codingPath: codingPath + [key]))
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        child(key).setScalar(try encoder.text(for: value, codingPath: codingPath + [key]))
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        child(key).setScalar(String(value))
    }

    mutating func encode(_ value: Int8, forKey key: Key) throws {
        child(key).setScalar(String(value))
    }

    mutating func encode(_ value: Int16, forKey key: Key) throws {
        child(key).setScalar(String(value))
    }

    mutating func encode(_ value: Int32, forKey key: Key) throws {
        child(key).setScalar(String(value))
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        child(key).setScalar(String(value))
    }

    mutating func encode(_ value: UInt, forKey key: Key) throws {
        child(key).setScalar(String(value))
    }

    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        child(key).setScalar(String(value))
    }

    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        child(key).setScalar(String(value))
    }

    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        child(key).setScalar(String(value))
    }

    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        child(key).setScalar(String(value))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.encode(value, into: child(key), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = child(key)
        child.makeKeyed()
        return KeyedEncodingContainer(
            FormKeyedContainer<NestedKey>(encoder: encoder, node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = child(key)
        child.makeUnkeyed()
        return FormUnkeyedContainer(encoder: encoder, node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        FormValueEncoder(
            options: encoder.options, node: node.child(forKey: FormCodingKey.super.stringValue),
            codingPath: codingPath + [FormCodingKey.super])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        FormValueEncoder(options: encoder.options, node: child(key), codingPath: codingPath + [key])
    }
}

/// Appends an array's elements as child nodes of one `FormNode`.
struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: FormValueEncoder
    let node: FormNode
    let codingPath: [any CodingKey]

    var count: Int {
        node.elements.count
    }

    private var nextPath: [any CodingKey] {
        codingPath + [FormCodingKey(intValue: count)]
    }

    mutating func encodeNil() throws {
        node.appendElement().setNull()
    }

    mutating func encode(_ value: Bool) throws {
        node.appendElement().setScalar(encoder.text(for: value))
    }

    mutating func encode(_ value: String) throws {
        node.appendElement().setScalar(value)
    }

    mutating func encode(_ value: Double) throws {
        let text = try encoder.text(for: value, codingPath: nextPath)
        node.appendElement().setScalar(text)
    }

    mutating func encode(_ value: Float) throws {
        let text = try encoder.text(for: value, codingPath: nextPath)
        node.appendElement().setScalar(text)
    }

    mutating func encode(_ value: Int) throws {
        node.appendElement().setScalar(String(value))
    }

    mutating func encode(_ value: Int8) throws {
        node.appendElement().setScalar(String(value))
    }

    mutating func encode(_ value: Int16) throws {
        node.appendElement().setScalar(String(value))
    }

    mutating func encode(_ value: Int32) throws {
        node.appendElement().setScalar(String(value))
    }

    mutating func encode(_ value: Int64) throws {
        node.appendElement().setScalar(String(value))
    }

    mutating func encode(_ value: UInt) throws {
        node.appendElement().setScalar(String(value))
    }

    mutating func encode(_ value: UInt8) throws {
        node.appendElement().setScalar(String(value))
    }

    mutating func encode(_ value: UInt16) throws {
        node.appendElement().setScalar(String(value))
    }

    mutating func encode(_ value: UInt32) throws {
        node.appendElement().setScalar(String(value))
    }

    mutating func encode(_ value: UInt64) throws {
        node.appendElement().setScalar(String(value))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try encoder.encode(value, into: node.appendElement(), codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let element = node.appendElement()
        element.makeKeyed()
        return KeyedEncodingContainer(FormKeyedContainer<NestedKey>(encoder: encoder, node: element, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let element = node.appendElement()
        element.makeUnkeyed()
        return FormUnkeyedContainer(encoder: encoder, node: element, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return FormValueEncoder(options: encoder.options, node: node.appendElement(), codingPath: path)
    }
}

/// Writes one value into a `FormNode`.
struct FormSingleValueContainer: SingleValueEncodingContainer {
    let encoder: FormValueEncoder
    let node: FormNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        node.setNull()
    }

    mutating func encode(_ value: Bool) throws {
        node.setScalar(encoder.text(for: value))
    }

    mutating func encode(_ value: String) throws {
        node.setScalar(value)
    }

    mutating func encode(_ value: Double) throws {
        node.setScalar(try encoder.text(for: value, codingPath: codingPath))
    }

    mutating func encode(_ value: Float) throws {
        node.setScalar(try encoder.text(for: value, codingPath: codingPath))
    }

    mutating func encode(_ value: Int) throws {
        node.setScalar(String(value))
    }

    mutating func encode(_ value: Int8) throws {
        node.setScalar(String(value))
    }

    mutating func encode(_ value: Int16) throws {
        node.setScalar(String(value))
    }

    mutating func encode(_ value: Int32) throws {
        node.setScalar(String(value))
    }

    mutating func encode(_ value: Int64) throws {
        node.setScalar(String(value))
    }

    mutating func encode(_ value: UInt) throws {
        node.setScalar(String(value))
    }

    mutating func encode(_ value: UInt8) throws {
        node.setScalar(String(value))
    }

    mutating func encode(_ value: UInt16) throws {
        node.setScalar(String(value))
    }

    mutating func encode(_ value: UInt32) throws {
        node.setScalar(String(value))
    }

    mutating func encode(_ value: UInt64) throws {
        node.setScalar(String(value))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encode(value, into: node, codingPath: codingPath)
    }
}
