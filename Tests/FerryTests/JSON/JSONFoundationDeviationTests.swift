import Ferry
import Foundation
import Testing

/// The inputs on which the JSON fuzz target (Fuzz/JSON.swift) found Ferry and `JSONSerialization` to disagree.
/// Ferry is right on each (RFC 8259, correctly rounded numbers); these tests keep it so.
@Suite("JSON: where Ferry and JSONSerialization differ")
struct JSONFoundationDeviationTests {
    @Test("Trailing commas are rejected", arguments: ["[1,]", "{\"a\":1,}", "[[1, ] ]", "{\"a\":[],\n}"])
    func trailingCommasAreRejected(text: String) {
        let error = #expect(throws: JSONParseError.self) { try JSON(parsing: text) }
        #expect(error?.kind == .unexpectedByte)
    }

    @Test(
        "UTF-16 and UTF-32 documents are rejected",
        arguments: [String.Encoding.utf16, .utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian])
    func otherEncodingsAreRejected(encoding: String.Encoding) throws {
        let data = try #require("[1]".data(using: encoding))
        #expect(throws: JSONParseError.self) { try JSON(parsing: data) }
    }

    @Test(
        "Long decimals are correctly rounded",
        arguments: ["1.79761844674775808", "187976931348623157e038", "7440737095516154.674407370955161503"])
    func longDecimalsAreCorrectlyRounded(text: String) throws {
        let expected = try #require(Double(text))
        #expect(try JSON(parsing: text).doubleValue == expected)
        #expect(try JSON(parsing: "[\(text)]")[0]?.doubleValue == expected)
    }

    @Test("Nineteen-digit integers stay exact")
    func nineteenDigitIntegersStayExact() throws {
        #expect(try JSON(parsing: "-9223372036854774251").int64Value == -9_223_372_036_854_774_251)
        #expect(try JSON(parsing: "[-9219552195516177070]")[0]?.int64Value == -9_219_552_195_516_177_070)
        #expect(try JSON(parsing: "[9223372036854775807]")[0]?.int64Value == .max)
    }

    @Test("A number out of range is rejected even in a value a repeated key replaces")
    func anOutOfRangeNumberInAReplacedValueIsRejected() {
        let error = #expect(throws: JSONParseError.self) { try JSON(parsing: "{\"a\":1e400,\"a\":1}") }
        #expect(error?.kind == .numberOutOfRange)
    }

    @Test("U+FEFF inside a string is kept", arguments: ["\"\u{FEFF}x\"", "\"\\n\u{FEFF}x\"", "{\"\\t\u{FEFF}k\":1}"])
    func aByteOrderMarkInsideAStringIsKept(text: String) throws {
        let json = try JSON(parsing: text)
        let string = json.stringValue ?? json.objectValue?.keys.first
        #expect(string?.unicodeScalars.contains("\u{FEFF}") == true)
    }
}
