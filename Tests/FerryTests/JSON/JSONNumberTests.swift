import Ferry
import Testing

@Suite("JSONNumber")
struct JSONNumberTests {
    @Test("An integer and the double of the same value are equal and hash alike")
    func integerEqualsDouble() {
        let integer = JSONNumber(1)
        let double = JSONNumber(1.0)
        #expect(integer == double)
        #expect(integer.hashValue == double.hashValue)
        #expect(Set([integer, double, JSONNumber(Int64(1))]).count == 1)
        #expect(JSON.number(1) == JSON.number(1.0))
        #expect(Set<JSON>([1, 1.0]).count == 1)
    }

    @Test("Different values are not equal", arguments: [(JSONNumber(1), JSONNumber(1.5)), (2, 1), (0.1, 0.2)])
    func differentValues(left: JSONNumber, right: JSONNumber) {
        #expect(left != right)
    }

    @Test("Integers beyond 2^53 stay distinct from nearby doubles")
    func largeIntegers() {
        let exact = JSONNumber(Int64(9_007_199_254_740_993))
        #expect(exact != JSONNumber(9_007_199_254_740_992.0))
        #expect(exact.int64Value == 9_007_199_254_740_993)
        #expect(JSONNumber(Int64.max) != JSONNumber(9_223_372_036_854_775_808.0))
    }

    @Test("Negative zero equals zero")
    func negativeZero() {
        #expect(JSONNumber(-0.0) == JSONNumber(0))
        #expect(JSONNumber(-0.0).hashValue == JSONNumber(0).hashValue)
    }

    @Test("NaN equals itself, so Hashable's laws hold")
    func notANumber() {
        #expect(JSONNumber(Double.nan) == JSONNumber(Double.nan))
        #expect(JSONNumber(Double.nan).hashValue == JSONNumber(-Double.nan).hashValue)
    }

    @Test(
        "Accessors convert only when exact",
        arguments: [
            (JSONNumber(42), Int64?(42), 42.0), (JSONNumber(42.0), 42, 42.0), (JSONNumber(42.5), nil, 42.5),
            (JSONNumber(1e20), nil, 1e20), (JSONNumber(Int64.min), Int64.min, -9.223372036854775808e18),
        ])
    func accessors(number: JSONNumber, int64: Int64?, double: Double) {
        #expect(number.int64Value == int64)
        #expect(number.intValue == int64.map(Int.init))
        #expect(number.doubleValue == double)
    }

    @Test(
        "Descriptions are JSON numbers",
        arguments: [
            (JSONNumber(42), "42"), (JSONNumber(-7), "-7"), (JSONNumber(1.0), "1.0"), (JSONNumber(0.1), "0.1"),
            (JSONNumber(1e100), "1e+100"), (JSONNumber(Int64.min), "-9223372036854775808"),
        ])
    func descriptions(number: JSONNumber, text: String) {
        #expect(number.description == text)
    }
}
