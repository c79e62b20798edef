// libFuzzer target: JSONParser, differential against Foundation's JSONSerialization.
// Property: both accept or both reject every input, and accepted inputs give the same values, apart from the
// known deviations of Foundation below, each found by this target (RELIABILITY.md lists them too):
//   1. Trailing commas: Foundation accepts `[1,]` and `{"a":1,}`; Ferry rejects them (RFC 8259 has no such form).
//      Checked by removing the commas Ferry names and parsing again: the values must then agree.
//   2. UTF-16 and UTF-32: Foundation detects them (with or without a byte order mark) and accepts them; Ferry reads
//      UTF-8 only, as RFC 8259 §8.1 requires between systems. Checked by transcoding to UTF-8 and parsing again.
//   3. Rounding: Foundation rounds some decimals of 17 or more significant digits to a nearby but wrong Double
//      (`1.79761844674775808` becomes 1.7976184467477583, one unit in the last place above the correct
//      1.797618446747758; `187976931348623157e038` is four units off); Ferry's value is the correctly rounded one
//      (`Double(String)`). Checked by finding the number's text in the input and comparing with `Double(_:)`.
//   4. Large integers: Foundation gives some integers of 19 digits that fit an Int64 as a Double, not always the
//      nearest one (`-9223372036854774251` becomes -9223372036854774272, `-9219552195516177070` becomes
//      -9.219552195516176e18); Ferry keeps them exact. Checked by finding the integer's text in the input.
//   5. U+FEFF in strings: Foundation drops a U+FEFF (ZERO WIDTH NO-BREAK SPACE, the byte order mark) that opens a
//      string or follows an escape (`"\n\u{FEFF}x"` gives "\nx"); Ferry keeps every character of the string. Only a
//      byte order mark before the whole document is skipped, by both. Checked by comparing without U+FEFF.
//   6. Repeated keys: Foundation keeps the last value of a repeated key without checking the earlier ones for
//      numbers beyond Double's range (`{"a":1e400,"a":1}` is accepted, `{"a":1,"a":1e400}` is not); Ferry rejects
//      both. Checked by putting 0 in place of the number and parsing again.
// Not deviations (checked to agree): lone surrogate escapes (both reject), 512 levels of nesting (both accept 512,
// reject 513), a repeated key (both keep the last), numbers beyond Double's range (both reject), integers beyond
// Int64 (both give the nearest Double; Foundation keeps UInt64 values exactly, compared by value). Both key objects
// by Swift `String`, so two keys that are canonically equivalent (`"\u00e9"` and `"e\u0301"`) are one member.
// A disagreement this list does not explain stops the run.
import Foundation

@testable import Ferry

/// libFuzzer's entry point: checks the property above on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = count == 0 || start == nil ? Data() : Data(bytes: start!, count: count)
    let ferry = Result { () throws(JSONParseError) in try JSON(parsing: data) }
    let foundation = Result { try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) }

    // Ferry alone: whatever it accepts, it writes back as JSON that parses to the same value.
    if case .success(let value) = ferry {
        guard let reread = try? JSON(parsing: value.encoded()), same(reread, value) else {
            fuzzFailure("Ferry's value does not survive encoding: \(value)")
        }
    }

    // A document that is one number: Ferry's Double is the correctly rounded one.
    if case .success(.number(let number)) = ferry, number.int64Value == nil || number.doubleValue != 0,
        let text = String(bytes: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
        !text.contains("\u{FEFF}"), let exact = Double(text), number.int64Value == nil
    {
        guard number.doubleValue == exact || (number.doubleValue.isZero && exact.isZero) else {
            fuzzFailure("\(text) parsed as \(number.doubleValue), correctly rounded \(exact)")
        }
    }

    switch (ferry, foundation) {
    case (.success(let ours), .success(let theirs)):
        guard let theirs = convert(theirs) else { fuzzFailure("Foundation returned an unexpected type: \(theirs)") }
        if !same(ours, theirs), !knownDeviation(data, ours: ours, theirs: theirs) {
            fuzzFailure("values differ:\n  Ferry      \(ours)\n  Foundation \(theirs)")
        }
    case (.failure(let error), .success(let theirs)):
        if !knownDeviation(data, rejectedBy: error, theirs: theirs) {
            fuzzFailure("Ferry rejects what Foundation accepts: \(error)")
        }
    case (.success(let value), .failure(let error)):
        if !acceptedOnlyByFerry(data, value) {
            fuzzFailure("Ferry accepts what Foundation rejects (\(error)): \(value)")
        }
    case (.failure, .failure):
        break
    }
    return 0
}

/// Foundation's object graph as a `JSON` value; `nil` for a type JSON has no kind for.
private func convert(_ object: Any) -> JSON? {
    switch object {
    case is NSNull: return .null
    case let bool as Bool where type(of: object) == Bool.self: return .bool(bool)
    case let string as String: return .string(string)
    case let array as [Any]:
        var elements: [JSON] = []
        for element in array {
            guard let element = convert(element) else { return nil }
            elements.append(element)
        }
        return .array(elements)
    case let dictionary as [String: Any]:
        var members: [String: JSON] = [:]
        for (key, value) in dictionary {
            guard let value = convert(value) else { return nil }
            members[key] = value
        }
        return .object(members)
    case let number as NSNumber:
        return convertNumber(number)
    default:
        return nil
    }
}

private func convertNumber(_ number: NSNumber) -> JSON {
    switch String(cString: number.objCType) {
    case "c", "B": return .bool(number.boolValue)
    case "d", "f": return .number(JSONNumber(number.doubleValue))
    case "Q", "L", "I", "S", "C":
        let value = number.uint64Value
        return .number(value <= UInt64(Int64.max) ? JSONNumber(Int64(value)) : JSONNumber(Double(value)))
    default: return .number(JSONNumber(number.int64Value))
    }
}

/// Equal values, strings compared by their exact scalars (Swift's `==` on strings is canonical equivalence).
private func same(_ left: JSON, _ right: JSON) -> Bool {
    switch (left, right) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
    case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy(same)
    case (.object(let a), .object(let b)):
        guard a.count == b.count else { return false }
        return a.allSatisfy { key, value in
            guard let match = b.first(where: { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }) else {
                return false
            }
            return same(value, match.value)
        }
    default: return false
    }
}

/// Whether a difference between two accepted values is deviation 3 or 4: only numbers differ, each by rounding, and
/// Ferry's is the exact integer or the correctly rounded value of a number written in the input.
private func knownDeviation(_ data: Data, ours: JSON, theirs: JSON) -> Bool {
    switch (ours, theirs) {
    case (.number(let a), .number(let b)):
        let (ours, theirs) = (a.doubleValue, b.doubleValue)
        // Deviation 4: an integer Ferry keeps exactly and Foundation gives as a nearby Double.
        if case .int(let integer) = a.storage, case .double = b.storage,
            abs(Double(integer) - theirs) <= abs(theirs) * 1e-12
        {
            return numberTokens(in: data).contains { Int64($0) == integer }
        }
        guard case .double = a.storage, ours.isFinite, theirs.isFinite, abs(ours - theirs) <= abs(ours) * 1e-12 else {
            return false
        }
        return numberTokens(in: data).contains { Double($0) == ours && Double($0) != theirs }
    case (.string(let a), .string(let b)):
        return droppingByteOrderMarks(a) == droppingByteOrderMarks(b)  // Deviation 5.
    case (.array(let a), .array(let b)):
        return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) || knownDeviation(data, ours: $0, theirs: $1) }
    case (.object(let a), .object(let b)):
        guard a.count == b.count else { return false }
        return a.allSatisfy { key, value in
            // Deviation 5 in a key.
            let match = b[key] ?? b.first { droppingByteOrderMarks($0.key) == droppingByteOrderMarks(key) }?.value
            guard let match else { return false }
            return same(value, match) || knownDeviation(data, ours: value, theirs: match)
        }
    default:
        return false
    }
}

private func droppingByteOrderMarks(_ text: String) -> [Unicode.Scalar] {
    text.unicodeScalars.filter { $0 != "\u{FEFF}" }
}

/// Every run of number characters in the input, as text.
private func numberTokens(in data: Data) -> [String] {
    let isNumberByte: (UInt8) -> Bool = { (0x30...0x39).contains($0) || "-+.eE".utf8.contains($0) }
    return data.split(whereSeparator: { !isNumberByte($0) }).map { String(decoding: $0, as: UTF8.self) }
}

/// Whether Ferry's rejection of an input Foundation accepts is explained by deviations 1, 2 and 6.
private func knownDeviation(_ data: Data, rejectedBy error: JSONParseError, theirs: Any) -> Bool {
    guard let theirs = convert(theirs) else { return false }
    // Deviation 1: blank out each trailing comma Ferry stops at, then the values must agree.
    var bytes = Array(data)
    var error = error
    for _ in 0..<64 {
        if let comma = trailingComma(bytes, error) {
            bytes[comma] = UInt8(ascii: " ")
        } else if error.kind == .numberOutOfRange {
            // Deviation 6: put a 0 in place of the number; if the document then agrees, the number sat in a value
            // that a repeated key replaced.
            var end = error.offset + 1
            while end < bytes.count, (0x30...0x39).contains(bytes[end]) || "-+.eE".utf8.contains(bytes[end]) {
                end += 1
            }
            bytes.replaceSubrange(error.offset..<end, with: [UInt8(ascii: "0")])
        } else {
            break
        }
        switch Result(catching: { () throws(JSONParseError) in try JSON(parsing: Data(bytes)) }) {
        case .success(let value): return same(value, theirs) || knownDeviation(data, ours: value, theirs: theirs)
        case .failure(let next): error = next
        }
    }
    // Deviation 2: the same text in UTF-16 or UTF-32.
    let encodings: [String.Encoding] = [
        .utf16, .utf16BigEndian, .utf16LittleEndian, .utf32, .utf32BigEndian, .utf32LittleEndian,
    ]
    for encoding in encodings {
        guard let text = String(data: Data(bytes), encoding: encoding), let value = try? JSON(parsing: text) else {
            continue
        }
        if same(value, theirs) || knownDeviation(Data(text.utf8), ours: value, theirs: theirs) { return true }
    }
    return false
}

/// The offset of the comma before the `]` or `}` that `error` points at, if that is what stopped Ferry.
private func trailingComma(_ bytes: [UInt8], _ error: JSONParseError) -> Int? {
    guard error.kind == .unexpectedByte, error.offset < bytes.count,
        bytes[error.offset] == UInt8(ascii: "]") || bytes[error.offset] == UInt8(ascii: "}")
    else { return nil }
    var index = error.offset - 1
    while index >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index -= 1 }
    return index >= 0 && bytes[index] == UInt8(ascii: ",") ? index : nil
}

/// Whether Ferry may accept an input Foundation rejects: never.
private func acceptedOnlyByFerry(_ data: Data, _ value: JSON) -> Bool {
    false
}
