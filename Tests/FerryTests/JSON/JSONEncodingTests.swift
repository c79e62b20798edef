import Ferry
import Foundation
import Testing

@Suite("JSON encoding")
struct JSONEncodingTests {
    private func text(_ json: JSON, pretty: Bool = false) -> String {
        String(decoding: json.encoded(pretty: pretty), as: UTF8.self)
    }

    @Test(
        "Scalars encode as JSON tokens",
        arguments: [
            (JSON.null, "null"), (true, "true"), (false, "false"), (0, "0"), (-12, "-12"), (1.0, "1.0"),
            (1.5, "1.5"), (0.1, "0.1"), (1e-7, "1e-07"), (1e300, "1e+300"), (-0.0, "-0.0"),
            (.number(JSONNumber(Int64.max)), "9223372036854775807"), (.number(JSONNumber(.infinity)), "null"),
            (.number(JSONNumber(-.infinity)), "null"), (.number(JSONNumber(.nan)), "null"), ("", #""""#),
        ] as [(JSON, String)])
    func scalars(json: JSON, expected: String) {
        #expect(text(json) == expected)
    }

    @Test(
        "Strings escape quotes, backslashes and control characters only",
        arguments: [
            ("plain", #""plain""#), ("quote \" backslash \\ slash /", #""quote \" backslash \\ slash /""#),
            ("\n\r\t\u{08}\u{0C}", #""\n\r\t\b\f""#), ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
            ("é 😀 \u{7F} \u{2028}", "\"é 😀 \u{7F} \u{2028}\""),
        ])
    func strings(string: String, expected: String) {
        #expect(text(.string(string)) == expected)
    }

    @Test("Compact output sorts keys and writes no whitespace")
    func compact() {
        let json: JSON = ["b": [1, 2.5, nil], "a": ["z": true, "y": "x"], "c": [:], "d": []]
        #expect(text(json) == #"{"a":{"y":"x","z":true},"b":[1,2.5,null],"c":{},"d":[]}"#)
        #expect(json.description == text(json))
        #expect(json.debugDescription == text(json))
    }

    @Test("Pretty output indents by two spaces")
    func pretty() {
        let json: JSON = ["b": [1, ["c": nil]], "a": "x", "e": [], "f": [:]]
        let expected = """
            {
              "a": "x",
              "b": [
                1,
                {
                  "c": null
                }
              ],
              "e": [],
              "f": {}
            }
            """
        #expect(text(json, pretty: true) == expected)
    }

    @Test("Unsorted output is still valid JSON with every member")
    func unsorted() throws {
        let json: JSON = ["one": 1, "two": 2, "three": 3, "four": [4]]
        #expect(try JSON(parsing: json.encoded(sortedKeys: false)) == json)
    }

    @Test(
        "Parse, encode and parse again gives the same value",
        arguments: [
            #"{"a":[1,-2.5e+3,true,false,null,"s\u00e9\n\ud83d\ude00"],"b":{"c":{}},"d":[]}"#,
            "[9223372036854775807,-9223372036854775808,9007199254740993,18446744073709551616]",
            "[0.1,0.2,0.30000000000000004,1e-300,5e-324,1.7976931348623157e308,-0,-0.0,1.0,100]",
            #""\u0000\u001f\"\\/ \t""#, "[[[[[[]]]]],{},{\"\":{\"\":null}}]",
        ])
    func roundTrip(text: String) throws {
        let parsed = try JSON(parsing: text)
        for pretty in [false, true] {
            let reparsed = try JSON(parsing: parsed.encoded(pretty: pretty))
            #expect(reparsed == parsed)
            #expect(reparsed.encoded() == parsed.encoded())
        }
    }

    @Test("Doubles round-trip bit for bit")
    func doublesRoundTrip() throws {
        let doubles: [Double] = [
            0.1, 1 / 3, .pi, 1e23, 123456.789e-200, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 4.35,
        ]
        let json = JSON.array(doubles.map { .number(JSONNumber($0)) })
        let parsed = try JSON(parsing: json.encoded())
        let values = try #require(parsed.arrayValue?.compactMap(\.numberValue).map(\.doubleValue))
        #expect(values.map(\.bitPattern) == doubles.map(\.bitPattern))
    }
}
