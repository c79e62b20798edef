import Foundation

extension JSON {
    /// Writes the value as UTF-8 JSON text.
    ///
    /// Strings escape `"`, `\` and control characters; integers print exactly and doubles print the shortest
    /// text that reads back as the same `Double`, with integral doubles keeping a fraction (`1.0`). Non-finite
    /// doubles, which only values made in code can hold, are written as `null`.
    /// - Parameters:
    ///   - pretty: Whether to break lines and indent by two spaces; otherwise no whitespace is written.
    ///   - sortedKeys: Whether to write object members in key order, making the output deterministic.
    /// - Returns: The JSON text.
    public func encoded(pretty: Bool = false, sortedKeys: Bool = true) -> Data {
        var writer = JSONWriter(pretty: pretty, sortedKeys: sortedKeys)
        writer.write(self, indentation: 0)
        return Data(writer.output)
    }
}

extension JSON: CustomStringConvertible, CustomDebugStringConvertible {
    /// The value as compact JSON text with sorted keys.
    public var description: String {
        var writer = JSONWriter(pretty: false, sortedKeys: true)
        writer.write(self, indentation: 0)
        return String(decoding: writer.output, as: UTF8.self)
    }

    /// The value as compact JSON text with sorted keys, as `description` gives it.
    public var debugDescription: String {
        description
    }
}

/// Appends JSON text for a value to a byte buffer.
struct JSONWriter {
    let pretty: Bool
    let sortedKeys: Bool
    private(set) var output: [UInt8] = []

    init(pretty: Bool, sortedKeys: Bool) {
        self.pretty = pretty
        self.sortedKeys = sortedKeys
    }

    mutating func write(_ value: JSON, indentation: Int) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number):
            write(number)
        case .string(let string):
            write(string)
        case .array(let elements):
            writeArray(elements, indentation: indentation)
        case .object(let members):
            writeObject(members, indentation: indentation)
        }
    }

    private mutating func writeArray(_ elements: [JSON], indentation: Int) {
        output.append(UInt8(ascii: "["))
        for (position, element) in elements.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            newline(indentation: indentation + 1)
            write(element, indentation: indentation + 1)
        }
        if !elements.isEmpty { newline(indentation: indentation) }
        output.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject(_ members: [String: JSON], indentation: Int) {
        output.append(UInt8(ascii: "{"))
        let ordered = sortedKeys ? members.sorted { $0.key < $1.key } : Array(members)
        for (position, member) in ordered.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            newline(indentation: indentation + 1)
            write(member.key)
            output.append(UInt8(ascii: ":"))
            if pretty { output.append(UInt8(ascii: " ")) }
            write(member.value, indentation: indentation + 1)
        }
        if !members.isEmpty { newline(indentation: indentation) }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func newline(indentation: Int) {
        guard pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indentation * 2))
    }

    private mutating func write(_ number: JSONNumber) {
        switch number.storage {
        case .int(let value):
            output.append(contentsOf: String(value).utf8)
        case .double(let value) where value.isFinite:
            // Swift's description is the shortest round-tripping form and always valid JSON: 1.0, 1e-07, 5e-324.
            output.append(contentsOf: value.description.utf8)
        case .double:
            output.append(contentsOf: "null".utf8)
        }
    }

    private mutating func write(_ string: String) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for position in utf8.indices {
                let byte = utf8[position]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                appendEscape(for: byte)
                runStart = position + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(for byte: UInt8) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        default:
            output.append(contentsOf: "u00".utf8)
            output.append(hexDigit(byte >> 4))
            output.append(hexDigit(byte & 0x0F))
        }
    }

    private func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
