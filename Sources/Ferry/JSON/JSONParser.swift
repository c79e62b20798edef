import Foundation

extension JSON {
    /// Parses UTF-8 JSON text strictly by RFC 8259.
    ///
    /// Integers that fit an `Int64` stay exact; other numbers become `Double`s. A leading UTF-8 byte-order mark
    /// is skipped. Arrays and objects may nest up to 512 deep, so hostile input cannot exhaust the stack.
    /// - Parameter data: The JSON text.
    /// - Throws: `JSONParseError` naming the byte offset and what was expected there, for malformed JSON,
    ///   invalid UTF-8, lone surrogate escapes, numbers beyond `Double`'s range, too deep nesting or trailing data.
    public init(parsing data: Data) throws(JSONParseError) {
        let result = data.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: UInt8.self) { JSONParser.parse($0) }
        }
        self = try result.get()
    }

    /// Parses JSON text held in a string, by the same rules as `init(parsing:)` for `Data`.
    /// - Parameter text: The JSON text.
    /// - Throws: `JSONParseError` naming the UTF-8 byte offset and what was expected there.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result = text.withUTF8 { JSONParser.parse($0) }
        self = try result.get()
    }
}

/// A strict RFC 8259 parser over raw UTF-8 bytes, iterative so that nesting cannot overflow the stack.
///
/// Strings without escapes are made straight from the input bytes; escaped ones are assembled in one reused
/// scratch buffer. Integers are read exactly; decimals use the exact fast path (a mantissa up to 2^53 scaled by
/// a power of ten up to 10^22) and otherwise the standard library's correctly rounded conversion.
struct JSONParser {
    /// How deep arrays and objects may nest.
    static let maximumDepth = 512

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    private let bytes: UnsafeBufferPointer<UInt8>
    private let end: Int
    private var index = 0
    private var scratch: [UInt8] = []
    /// Elements of the arrays being parsed, innermost last, so each array is allocated once at its final size.
    private var pendingElements: [JSON] = []
    /// Members of the objects being parsed, innermost last, so each dictionary is allocated once at its final size.
    private var pendingMembers: [(key: String, value: JSON)] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.end = bytes.count
    }

    /// Parses one JSON document that must fill `bytes`, apart from whitespace and a leading byte-order mark.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSON, JSONParseError> {
        var parser = JSONParser(bytes: bytes)
        do {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSON {
        if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
        }
        let value = try parseValue()
        skipWhitespace()
        guard index == end else {
            throw error(.trailingData, at: index, "expected the end of input after the value, found \(byte(at: index))")
        }
        return value
    }

    /// An array or object whose members are still being read.
    private enum OpenContainer {
        /// An array whose elements so far sit in `pendingElements` from `first` on.
        case array(first: Int)
        /// An object whose members so far sit in `pendingMembers` from `first` on, and whose next value is
        /// for `key`.
        case object(first: Int, key: String)
    }

    /// Parses one value, nested containers included, with an explicit stack instead of recursion, so the depth
    /// of the input never decides the depth of the call stack.
    private mutating func parseValue() throws(JSONParseError) -> JSON {
        var open: [OpenContainer] = []
        while true {
            // Read a value, or open a container and go on to read its first member.
            skipWhitespace()
            guard index < end else { throw endOfInput(expecting: "a value") }
            var value: JSON
            switch bytes[index] {
            case UInt8(ascii: "["):
                try checkDepth(open.count)
                index += 1
                skipWhitespace()
                guard index < end, bytes[index] == UInt8(ascii: "]") else {
                    open.append(.array(first: pendingElements.count))
                    continue
                }
                index += 1
                value = .array([])
            case UInt8(ascii: "{"):
                try checkDepth(open.count)
                index += 1
                skipWhitespace()
                guard index < end, bytes[index] == UInt8(ascii: "}") else {
                    let key = try parseKey(expecting: "a string key or '}'")
                    open.append(.object(first: pendingMembers.count, key: key))
                    continue
                }
                index += 1
                value = .object([:])
            default:
                value = try parseScalar()
            }

            // Hand the value to the innermost open container, closing containers as their ends come.
            while true {
                guard let container = open.last else { return value }
                skipWhitespace()
                switch container {
                case .array(let first):
                    pendingElements.append(value)
                    guard index < end else { throw endOfInput(expecting: "',' or ']' after an array element") }
                    switch bytes[index] {
                    case UInt8(ascii: ","):
                        index += 1
                    case UInt8(ascii: "]"):
                        index += 1
                        value = .array(Array(pendingElements[first...]))
                        pendingElements.removeSubrange(first...)
                        open.removeLast()
                        continue
                    default:
                        throw unexpectedByte(expecting: "',' or ']' after an array element")
                    }
                case .object(let first, let key):
                    pendingMembers.append((key, value))
                    guard index < end else { throw endOfInput(expecting: "',' or '}' after an object member") }
                    switch bytes[index] {
                    case UInt8(ascii: ","):
                        index += 1
                        skipWhitespace()
                        open[open.count - 1] = .object(first: first, key: try parseKey(expecting: "a string key"))
                    case UInt8(ascii: "}"):
                        index += 1
                        value = .object(takeMembers(from: first))
                        open.removeLast()
                        continue
                    default:
                        throw unexpectedByte(expecting: "',' or '}' after an object member")
                    }
                }
                break
            }
        }
    }

    /// Parses a string, number or literal at `index`.
    private mutating func parseScalar() throws(JSONParseError) -> JSON {
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        case UInt8(ascii: "+"), UInt8(ascii: "."):
            throw error(.invalidNumber, at: index, "a number must start with '-' or a digit, found \(byte(at: index))")
        default:
            throw unexpectedByte(expecting: "a value")
        }
    }

    /// Parses an object key and the ':' after it, leaving `index` at the member's value.
    private mutating func parseKey(expecting expected: String) throws(JSONParseError) -> String {
        guard index < end else { throw endOfInput(expecting: expected) }
        guard bytes[index] == UInt8(ascii: "\"") else { throw unexpectedByte(expecting: expected) }
        let key = try parseString()
        skipWhitespace()
        guard index < end else { throw endOfInput(expecting: "':' after an object key") }
        guard bytes[index] == UInt8(ascii: ":") else { throw unexpectedByte(expecting: "':' after an object key") }
        index += 1
        return key
    }

    /// Builds a dictionary from the pending members from `first` on, a repeated key keeping its last value.
    private mutating func takeMembers(from first: Int) -> [String: JSON] {
        var members = [String: JSON](minimumCapacity: pendingMembers.count - first)
        for member in pendingMembers[first...] {
            members[member.key] = member.value
        }
        pendingMembers.removeSubrange(first...)
        return members
    }

    /// Throws if opening one more container inside `openCount` open ones would pass the depth limit.
    private func checkDepth(_ openCount: Int) throws(JSONParseError) {
        guard openCount < Self.maximumDepth else {
            throw error(.nestingTooDeep, at: index, "arrays and objects nest deeper than \(Self.maximumDepth) levels")
        }
    }

    // MARK: - Literals

    private mutating func parseLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for offset in expected.indices {
            let position = index + offset
            guard position < end else { throw endOfInput(expecting: "'\(literal)'") }
            guard bytes[position] == expected[offset] else {
                throw error(.unexpectedByte, at: position, "expected '\(literal)', found \(byte(at: position))")
            }
        }
        index += expected.count
    }

    // MARK: - Whitespace and errors

    @inline(__always)
    private mutating func skipWhitespace() {
        while index < end {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func error(_ kind: JSONParseError.Kind, at offset: Int, _ message: String) -> JSONParseError {
        JSONParseError(kind: kind, offset: offset, message: message)
    }

    func endOfInput(expecting expected: String) -> JSONParseError {
        error(.unexpectedEndOfInput, at: end, "unexpected end of input, expected \(expected)")
    }

    func unexpectedByte(expecting expected: String) -> JSONParseError {
        error(.unexpectedByte, at: index, "expected \(expected), found \(byte(at: index))")
    }

    /// Names the byte at `offset` for a message: `'x'` for printable ASCII, else its hex value.
    func byte(at offset: Int) -> String {
        guard offset < end else { return "the end of input" }
        let value = bytes[offset]
        if (0x21...0x7E).contains(value) {
            return "'\(Character(Unicode.Scalar(value)))'"
        }
        let hex = String(value, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }
}

// MARK: - Strings

extension JSONParser {
    /// Parses the string whose opening quote is at `index`.
    private mutating func parseString() throws(JSONParseError) -> String {
        let opening = index
        var runStart = index + 1
        var position = runStart
        var isEscaped = false
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                index = position + 1
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
                guard isEscaped else { return String(decoding: run, as: UTF8.self) }
                scratch.append(contentsOf: run)
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                if !isEscaped {
                    isEscaped = true
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                position = try appendEscape(at: position)
                runStart = position
            } else if byte < 0x20 {
                throw error(
                    .controlCharacterInString, at: position,
                    "expected '\"' or an escape, found control character \(self.byte(at: position)) in a string")
            } else if byte < 0x80 {
                position += 1
            } else {
                position = try endOfUTF8Sequence(at: position)
            }
        }
        throw endOfInput(expecting: "'\"' to close the string that starts at byte \(opening)")
    }

    /// Decodes the escape whose backslash is at `position` into `scratch`; returns the offset after it.
    private mutating func appendEscape(at position: Int) throws(JSONParseError) -> Int {
        guard position + 1 < end else { throw endOfInput(expecting: "an escape character after '\\'") }
        let decoded: UInt8
        switch bytes[position + 1] {
        case UInt8(ascii: "\""): decoded = 0x22
        case UInt8(ascii: "\\"): decoded = 0x5C
        case UInt8(ascii: "/"): decoded = 0x2F
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"): return try appendUnicodeEscape(at: position)
        default:
            throw error(
                .invalidEscape, at: position + 1,
                "expected one of '\"\\/bfnrtu' after '\\', found \(byte(at: position + 1))")
        }
        scratch.append(decoded)
        return position + 2
    }

    /// Decodes `\uXXXX`, or a `\uXXXX\uXXXX` surrogate pair, at `position`; returns the offset after it.
    private mutating func appendUnicodeEscape(at position: Int) throws(JSONParseError) -> Int {
        let unit = try hexQuad(at: position + 2)
        var next = position + 6
        var scalar = unit
        switch unit {
        case 0xD800...0xDBFF:
            guard next < end else { throw endOfInput(expecting: "a '\\u' low surrogate escape") }
            guard bytes[next] == UInt8(ascii: "\\"), next + 1 < end, bytes[next + 1] == UInt8(ascii: "u") else {
                throw error(.loneSurrogate, at: position, "high surrogate escape is not followed by a low surrogate")
            }
            let low = try hexQuad(at: next + 2)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error(.loneSurrogate, at: next, "expected a low surrogate escape after a high surrogate")
            }
            scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            next += 6
        case 0xDC00...0xDFFF:
            throw error(.loneSurrogate, at: position, "low surrogate escape without a high surrogate before it")
        default:
            break
        }
        appendUTF8(scalar)
        return next
    }

    /// Reads the four hex digits of a `\u` escape starting at `position`.
    private func hexQuad(at position: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for offset in position..<(position + 4) {
            guard offset < end else { throw endOfInput(expecting: "four hex digits after '\\u'") }
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default:
                throw error(
                    .invalidEscape, at: offset, "expected a hex digit in a '\\u' escape, found \(self.byte(at: offset))"
                )
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        }
    }

    /// Checks the multi-byte UTF-8 sequence whose lead byte is at `position` (RFC 3629: no overlong forms,
    /// no encoded surrogates, nothing past U+10FFFF); returns the offset after it.
    private func endOfUTF8Sequence(at position: Int) throws(JSONParseError) -> Int {
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch bytes[position] {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default:
            throw error(.invalidUTF8, at: position, "invalid UTF-8: \(byte(at: position)) cannot start a character")
        }
        for offset in (position + 1)..<(position + length) {
            guard offset < end else { throw endOfInput(expecting: "the rest of a UTF-8 character") }
            let range = offset == position + 1 ? secondRange : 0x80...0xBF
            guard range.contains(bytes[offset]) else {
                throw error(
                    .invalidUTF8, at: offset, "invalid UTF-8: \(byte(at: offset)) cannot continue the character")
            }
        }
        return position + length
    }
}

// MARK: - Numbers

extension JSONParser {
    /// Parses the number that starts at `index` (a '-' or a digit).
    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        var position = index
        let isNegative = bytes[position] == UInt8(ascii: "-")
        if isNegative { position += 1 }

        // Up to 19 significant digits fit a UInt64 exactly; more send us to the slow path.
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var isTooLong = false
        var exponent = 0
        var isInteger = true

        @inline(__always) func accumulate(_ byte: UInt8) {
            guard significantDigits < 19 else {
                isTooLong = true
                return
            }
            mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
            if mantissa != 0 { significantDigits += 1 }
        }

        guard position < end else { throw endOfInput(expecting: "a digit after '-'") }
        switch bytes[position] {
        case UInt8(ascii: "0"):
            position += 1
            if position < end, bytes[position].isASCIIDigit {
                throw error(.invalidNumber, at: start, "a number cannot have a leading zero")
            }
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            while position < end, bytes[position].isASCIIDigit {
                accumulate(bytes[position])
                position += 1
            }
        default:
            throw error(.invalidNumber, at: position, "expected a digit after '-', found \(byte(at: position))")
        }

        if position < end, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < end else { throw endOfInput(expecting: "a digit after '.'") }
            guard bytes[position].isASCIIDigit else {
                throw error(.invalidNumber, at: position, "expected a digit after '.', found \(byte(at: position))")
            }
            while position < end, bytes[position].isASCIIDigit {
                accumulate(bytes[position])
                exponent -= 1
                position += 1
            }
        }

        if position < end, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            var isExponentNegative = false
            if position < end, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
                isExponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < end else { throw endOfInput(expecting: "a digit in the exponent") }
            guard bytes[position].isASCIIDigit else {
                throw error(
                    .invalidNumber, at: position, "expected a digit in the exponent, found \(byte(at: position))")
            }
            var magnitude = 0
            while position < end, bytes[position].isASCIIDigit {
                if magnitude < 1_000_000 {
                    magnitude = magnitude * 10 + Int(bytes[position] &- UInt8(ascii: "0"))
                }
                position += 1
            }
            exponent += isExponentNegative ? -magnitude : magnitude
        }
        index = position

        if !isTooLong {
            if isInteger {
                if isNegative, mantissa <= UInt64(Int64.max) + 1 {
                    return JSONNumber(Int64(bitPattern: 0 &- mantissa))
                }
                if !isNegative, mantissa <= UInt64(Int64.max) {
                    return JSONNumber(Int64(mantissa))
                }
            }
            if mantissa == 0 {
                return JSONNumber(isNegative ? -0.0 : 0.0)
            }
            if mantissa <= 1 << 53, (-22...22).contains(exponent) {
                // Both operands are exact doubles, so one correctly rounded operation gives the right result.
                let scaled =
                    exponent < 0
                    ? Double(mantissa) / Self.powersOfTen[-exponent]
                    : Double(mantissa) * Self.powersOfTen[exponent]
                return JSONNumber(isNegative ? -scaled : scaled)
            }
        }

        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error(.numberOutOfRange, at: start, "number \(text) is too large for a Double")
        }
        return JSONNumber(value)
    }
}

extension UInt8 {
    fileprivate var isASCIIDigit: Bool {
        self &- UInt8(ascii: "0") < 10
    }
}
