import Ferry
import Testing

@Suite("JSON literals, subscripts and accessors")
struct JSONValueTests {
    @Test("Literals build every kind")
    func literals() {
        let json: JSON = ["s": "text", "i": 42, "d": 2.5, "b": true, "n": nil, "a": [1, "two"], "o": ["k": "v"]]
        #expect(
            json
                == .object([
                    "s": .string("text"), "i": .number(JSONNumber(42)), "d": .number(JSONNumber(2.5)), "b": .bool(true),
                    "n": .null, "a": .array([.number(JSONNumber(1)), .string("two")]),
                    "o": .object(["k": .string("v")]),
                ]))
    }

    @Test("A repeated key in a dictionary literal keeps its last value")
    func repeatedLiteralKey() {
        let json: JSON = ["a": 1, "a": 2]
        #expect(json == ["a": 2])
    }

    @Test("Subscripts chain through optionals")
    func subscripts() {
        let json: JSON = ["args": ["a": "1", "list": [10, 20]], "top": 1]
        #expect(json["args"]?["a"] == "1")
        #expect(json["args"]?["list"]?[1] == 20)
        #expect(json["args"]?["missing"] == nil)
        #expect(json["args"]?["list"]?[2] == nil)
        #expect(json["args"]?["list"]?[-1] == nil)
        #expect(json["top"]?["a"] == nil)
        #expect(json[0] == nil)
        #expect(JSON.array(["x"])["key"] == nil)
    }

    @Test("Accessors return a value only for the matching kind")
    func accessors() {
        let json: JSON = [
            "s": "x", "b": false, "i": 7, "big": 9_007_199_254_740_993, "d": 1.5, "a": [], "o": [:], "n": nil,
        ]
        #expect(json["s"]?.stringValue == "x")
        #expect(json["b"]?.boolValue == false)
        #expect(json["i"]?.intValue == 7)
        #expect(json["big"]?.int64Value == 9_007_199_254_740_993)
        #expect(json["d"]?.doubleValue == 1.5)
        #expect(json["d"]?.intValue == nil)
        #expect(json["i"]?.doubleValue == 7)
        #expect(json["a"]?.arrayValue == [])
        #expect(json["o"]?.objectValue == [:])
        #expect(json["n"]?.isNull == true)
        #expect(json["s"]?.isNull == false)
        #expect(json["s"]?.intValue == nil)
        #expect(json["i"]?.stringValue == nil)
        #expect(json["b"]?.arrayValue == nil)
        #expect(json["a"]?.objectValue == nil)
        #expect(json["o"]?.boolValue == nil)
        #expect(json.numberValue == nil)
    }
}
