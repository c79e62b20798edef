import Foundation

/// The `Encoder` a `FormEncoder` hands to values; it writes into one `FormNode`.
final class FormValueEncoder: Encoder {
    let options: FormEncoder
    let node: FormNode
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] {
        [:]
    }

    init(options: FormEncoder, node: FormNode, codingPath: [any CodingKey]) {
        self.options = options
        self.node = node
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeKeyed()
        return KeyedEncodingContainer(FormKeyedContainer<Key>(encoder: self, node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeUnkeyed()
        return FormUnkeyedContainer(encoder: self, node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FormSingleValueContainer(encoder: self, node: node, codingPath: codingPath)
    }
}

extension FormValueEncoder {
    /// Encodes `value` into `node`, applying the date and data strategies and writing URLs and decimals as text.
    func encode<T: Encodable>(_ value: T, into node: FormNode, codingPath: [any CodingKey]) throws {
        switch value {
        case let date as Date:
            try encode(date, into: node, codingPath: codingPath)
        case let data as Data where options.dataEncoding == .base64:
            node.setScalar(data.base64EncodedString())
        case let url as URL:
            node.setScalar(url.absoluteString)
        case let decimal as Decimal:
            node.setScalar(decimal.description)
        default:
            try value.encode(to: FormValueEncoder(options: options, node: node, codingPath: codingPath))
        }
    }

    private func encode(_ date: Date, into node: FormNode, codingPath: [any CodingKey]) throws {
        switch options.dateEncoding {
        case .iso8601:
            node.setScalar(date.formatted(Date.ISO8601FormatStyle()))
        case .secondsSince1970:
            node.setScalar(Self.text(for: date.timeIntervalSince1970))
        case .millisecondsSince1970:
            node.setScalar(Self.text(for: (date.timeIntervalSince1970 * 1000).rounded()))
        case .deferredToDate:
            try date.encode(to: FormValueEncoder(options: options, node: node, codingPath: codingPath))
        case .formatted(let format):
            node.setScalar(format(date))
        }
    }

    /// A whole number without a fraction (`1700000000`), anything else as Swift prints it.
    private static func text(for value: Double) -> String {
        if let whole = Int64(exactly: value) { return String(whole) }
        return value.description
    }

    func text(for value: Bool) -> String {
        switch options.boolEncoding {
        case .literal: value ? "true" : "false"
        case .numeric: value ? "1" : "0"
        }
    }

    func text<F: BinaryFloatingPoint & LosslessStringConvertible>(
        for value: F, codingPath: [any CodingKey]
    ) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath, debugDescription: "A form value cannot be the non-finite number \(value)"))
        }
        return value.description
    }
}

/// A coding key for array positions and `super`, which the value being encoded does not supply.
struct FormCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    static let `super` = FormCodingKey(stringValue: "super")
}
