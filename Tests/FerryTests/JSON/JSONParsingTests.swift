import Ferry
import Foundation
import Testing

@Suite("JSON parsing")
struct JSONParsingTests {
    @Test(
        "Literals parse, with surrounding whitespace",
        arguments: [
            ("null", JSON.null), ("true", true), ("false", false), (" \t\r\n null \n", nil), ("\ttrue\r\n", true),
        ] as [(String, JSON)])
    func literals(text: String, expected: JSON) throws {
        #expect(try JSON(parsing: text) == expected)
    }

    @Test(
        "Numbers parse to exact integers or doubles",
        arguments: [
            ("0", JSONNumber(0)), ("-0", JSONNumber(0)), ("7", JSONNumber(7)), ("-123", JSONNumber(-123)),
            ("1.5", JSONNumber(1.5)), ("-1.5e3", JSONNumber(-1500.0)), ("1E2", JSONNumber(100.0)),
            ("1e-2", JSONNumber(0.01)), ("0.1", JSONNumber(0.1)), ("2.5E+1", JSONNumber(25.0)),
            ("123456789.123456789", JSONNumber(123456789.123456789)), ("1e308", JSONNumber(1e308)),
            ("5e-324", JSONNumber(5e-324)), ("1e-400", JSONNumber(0.0)),
            ("0.30000000000000004", JSONNumber(0.30000000000000004)),
        ] as [(String, JSONNumber)])
    func numbers(text: String, expected: JSONNumber) throws {
        let json = try JSON(parsing: text)
        #expect(json == .number(expected))
        #expect(json.doubleValue == expected.doubleValue)
    }

    @Test("Integers keep their storage, fractions and exponents make doubles")
    func numberStorage() throws {
        let integer = try #require(try JSON(parsing: "42").numberValue)
        let fraction = try #require(try JSON(parsing: "42.0").numberValue)
        let exponent = try #require(try JSON(parsing: "42e0").numberValue)
        #expect(integer.description == "42")
        #expect(fraction.description == "42.0")
        #expect(exponent.description == "42.0")
    }

    @Test("Int64 limits and integers above 2^53 stay exact")
    func int64Exactness() throws {
        #expect(try JSON(parsing: "9223372036854775807").int64Value == Int64.max)
        #expect(try JSON(parsing: "-9223372036854775808").int64Value == Int64.min)
        #expect(try JSON(parsing: "9007199254740993").int64Value == 9_007_199_254_740_993)
        #expect(try JSON(parsing: "[-9007199254740993]")[0]?.int64Value == -9_007_199_254_740_993)
    }

    @Test(
        "Integers beyond Int64 become doubles",
        arguments: [
            ("9223372036854775808", 9_223_372_036_854_775_808.0),
            ("-9223372036854785808", -9_223_372_036_854_785_808.0),
            ("18446744073709551616", 18_446_744_073_709_551_616.0), ("100000000000000000000000", 1e23),
        ])
    func integersBeyondInt64(text: String, expected: Double) throws {
        let number = try #require(try JSON(parsing: text).numberValue)
        #expect(number.int64Value == nil)
        #expect(number.doubleValue == expected)
    }

    @Test(
        "Strings decode every escape",
        arguments: [
            (#""""#, ""), (#""plain""#, "plain"), (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
            (#""\u0041\u00e9\u20AC""#, "Aé€"), (#""\u0000""#, "\u{0}"), (#""a\nb""#, "a\nb"),
            (#""\uD83D\uDE00""#, "😀"), (#""\ud834\udd1e clef""#, "𝄞 clef"),
            (#""héllo wörld 😀 日本""#, "héllo wörld 😀 日本"),
            (#""x\u0022y""#, "x\"y"), ("\"\u{7F}\"", "\u{7F}"),
        ])
    func strings(text: String, expected: String) throws {
        #expect(try JSON(parsing: text) == .string(expected))
    }

    @Test("Arrays and objects nest, with whitespace anywhere between tokens")
    func containers() throws {
        let text = """
             { "a" : [ 1 , 2.5 , "x" , true , null , { } , [ ] ] ,
              "b":{"c":{"d":[[[]]]}},"":"empty key" }
            """
        let json = try JSON(parsing: text)
        #expect(json == ["a": [1, 2.5, "x", true, nil, [:], []], "b": ["c": ["d": [[[]]]]], "": "empty key"])
    }

    @Test("A repeated object key keeps its last value")
    func duplicateKeys() throws {
        #expect(try JSON(parsing: #"{"a":1,"b":2,"a":3}"#) == ["a": 3, "b": 2])
    }

    @Test("A UTF-8 byte-order mark is skipped")
    func byteOrderMark() throws {
        let data = Data([0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8))
        #expect(try JSON(parsing: data) == ["a": 1])
    }

    @Test("Data and String inputs parse alike")
    func dataAndString() throws {
        let text = #"[1,"two",{"three":3.0}]"#
        #expect(try JSON(parsing: Data(text.utf8)) == JSON(parsing: text))
    }

    @Test("Nesting up to 512 deep parses")
    func deepestAllowedNesting() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        var json = try JSON(parsing: text)
        var depth = 0
        while let inner = json.arrayValue {
            depth += 1
            json = inner.first ?? .null
        }
        #expect(depth == 512)
    }

    @Test("Errors say where and what was expected")
    func errorDetails() throws {
        let error = try #require(throws: JSONParseError.self) { try JSON(parsing: "[1,]") }
        #expect(error.offset == 3)
        #expect(error.kind == .unexpectedByte)
        #expect(error.description == "expected a value, found ']' at byte 3")

        let colon = try #require(throws: JSONParseError.self) { try JSON(parsing: #"{"a" 1}"#) }
        #expect(colon.offset == 5)
        #expect(colon.message == "expected ':' after an object key, found '1'")

        let end = try #require(throws: JSONParseError.self) { try JSON(parsing: #"{"a":"#) }
        #expect(end.kind == .unexpectedEndOfInput)
        #expect(end.offset == 5)
    }

    @Test(
        "Malformed numbers name the problem",
        arguments: [
            ("01", JSONParseError.Kind.invalidNumber, 0), ("-01", .invalidNumber, 0), ("1.", .unexpectedEndOfInput, 2),
            ("1.e5", .invalidNumber, 2), (".5", .invalidNumber, 0), ("+1", .invalidNumber, 0),
            ("-", .unexpectedEndOfInput, 1),
            ("-a", .invalidNumber, 1), ("1e", .unexpectedEndOfInput, 2), ("1e+", .unexpectedEndOfInput, 3),
            ("1ex", .invalidNumber, 2), ("1e400", .numberOutOfRange, 0), ("-1e400", .numberOutOfRange, 0),
        ])
    func malformedNumbers(text: String, kind: JSONParseError.Kind, offset: Int) throws {
        let error = try #require(throws: JSONParseError.self) { try JSON(parsing: text) }
        #expect(error.kind == kind)
        #expect(error.offset == offset)
    }

    @Test(
        "String errors name the problem",
        arguments: [
            (#""\uD800""#, JSONParseError.Kind.loneSurrogate), (#""\uDC00""#, .loneSurrogate),
            (#""\uD800\u0041""#, .loneSurrogate), (#""\uD800x""#, .loneSurrogate), (#""\uDBFF\n""#, .loneSurrogate),
            (#""\x""#, .invalidEscape), (#""\u12G4""#, .invalidEscape), ("\"tab\there\"", .controlCharacterInString),
            ("\"line\nbreak\"", .controlCharacterInString), (#""open"#, .unexpectedEndOfInput),
        ])
    func stringErrors(text: String, kind: JSONParseError.Kind) throws {
        let error = try #require(throws: JSONParseError.self) { try JSON(parsing: text) }
        #expect(error.kind == kind)
    }

    @Test("Invalid UTF-8 is rejected at the offending byte", arguments: InvalidUTF8.all)
    func invalidUTF8(input: InvalidUTF8) throws {
        let error = try #require(throws: JSONParseError.self) { try JSON(parsing: Data(input.bytes)) }
        #expect(error.offset == input.offset)
    }

    @Test("Rejected inputs throw and never crash", arguments: RejectedInput.all)
    func rejected(input: RejectedInput) {
        #expect(throws: JSONParseError.self) { try JSON(parsing: Data(input.bytes)) }
    }

    @Test("Every truncation of a valid document is rejected")
    func truncations() throws {
        let text = #"{"a":[1,-2.5e+3,true,false,null,"s\u00e9\n😀"],"b":{"c":{}},"d":[]}"#
        let bytes = Array(text.utf8)
        _ = try JSON(parsing: Data(bytes))
        for length in 0..<bytes.count {
            #expect(throws: JSONParseError.self, "prefix of \(length) bytes") {
                try JSON(parsing: Data(bytes[..<length]))
            }
        }
    }

    @Test("Nesting deeper than the limit is rejected", arguments: ["[", "{\"a\":", "[{\"a\":"])
    func tooDeep(opener: String) {
        let text = String(repeating: opener, count: 100_000)
        let error = #expect(throws: JSONParseError.self) { try JSON(parsing: text) }
        #expect(error?.kind == .nestingTooDeep)
    }
}

extension JSONParsingTests {
    /// Bytes that must be rejected as JSON, with a name for the test report.
    struct RejectedInput: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]

        var testDescription: String { name }

        init(_ text: String) {
            name = text.debugDescription
            bytes = Array(text.utf8)
        }

        init(_ name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }

        static let all: [RejectedInput] =
            [
                "", " ", "\u{FEFF}", "nul", "tru", "True", "NULL", "nulll", "true false", "[", "]", "[1", "[1,", "[1,]",
                "[,1]",
                "[1 2]", "{", "}", #"{"a""#, #"{"a":"#, #"{"a":1"#, #"{"a":1,}"#, "{a:1}", "{'a':1}", #"{"a" 1}"#,
                #"{"a":1 "b":2}"#, "{1:2}", #""abc"#, #""\"#, #""\u12""#, "01", "-", "1.", ".5", "+1", "1e", "1.e5",
                "--1",
                "0x10", "NaN", "Infinity", "-Infinity", "1 2", "null x", "[]]", "{}}", "'single'", "\u{00A0}1",
                "[1]\u{0}", "/* comment */ 1", "[1,2,3,]",
            ].map(RejectedInput.init)
            + [
                RejectedInput("lone 0xFF", bytes: [0xFF]),
                RejectedInput("NUL before the value", bytes: [0x00, 0x31]),
                RejectedInput("100000 '['", bytes: Array(repeating: UInt8(ascii: "["), count: 100_000)),
                RejectedInput(
                    "100000 '[' then ']'", bytes: Array(repeating: UInt8(ascii: "["), count: 100_000) + [0x5D]),
            ]
    }

    /// A string holding ill-formed UTF-8, and the offset the error must point at.
    struct InvalidUTF8: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let offset: Int

        var testDescription: String { name }

        static let all: [InvalidUTF8] = [
            InvalidUTF8(name: "stray continuation byte", bytes: [0x22, 0x80, 0x22], offset: 1),
            InvalidUTF8(name: "0xFF", bytes: [0x22, 0x61, 0xFF, 0x22], offset: 2),
            InvalidUTF8(name: "overlong slash", bytes: [0x22, 0xC0, 0xAF, 0x22], offset: 1),
            InvalidUTF8(name: "overlong three-byte", bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], offset: 2),
            InvalidUTF8(name: "encoded surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], offset: 2),
            InvalidUTF8(name: "above U+10FFFF", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], offset: 2),
            InvalidUTF8(name: "five-byte lead", bytes: [0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22], offset: 1),
            InvalidUTF8(name: "truncated sequence", bytes: [0x22, 0xE2, 0x82, 0x22], offset: 3),
            InvalidUTF8(name: "truncated at end", bytes: [0x22, 0xE2, 0x82], offset: 3),
            InvalidUTF8(name: "in a key", bytes: Array(#"{""#.utf8) + [0xC3, 0x28] + Array(#"":1}"#.utf8), offset: 3),
            InvalidUTF8(name: "outside a string", bytes: [0x5B, 0xC3, 0xA9, 0x5D], offset: 1),
        ]
    }
}
