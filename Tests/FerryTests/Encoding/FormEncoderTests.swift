import Ferry
import Foundation
import Testing

@Suite("FormEncoder")
struct FormEncoderTests {
    /// The pairs as `name=value` strings, unescaped, for readable expectations.
    private func encode<T: Encodable>(_ value: T, with encoder: FormEncoder = FormEncoder()) throws -> [String] {
        try encoder.encode(value).map { "\($0.name)=\($0.value)" }
    }

    private struct Flat: Encodable {
        var name = "Ferry"
        var count = 3
        var ratio = 0.5
        var small: Int8 = -4
        var big: UInt64 = .max
        var single: Float = 1.5
    }

    private struct Address: Encodable {
        var city: String
        var geo: [String: Double]
    }

    private struct User: Encodable {
        var name: String
        var address: Address
    }

    private struct Tags: Encodable {
        var tags: [String]
    }

    private struct Flags: Encodable {
        var on = true
        var off = false
        var list = [true, false]
    }

    private struct Optionals: Encodable {
        var first: String?
        var second: Int? = 2
        var third: String?
        var items: [Int?] = [1, nil, 3]
    }

    private struct Ordered: Encodable {
        var zebra = 1
        var apple = 2
        var mango = 3

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(mango, forKey: .mango)
            try container.encode(zebra, forKey: .zebra)
            try container.encode(apple, forKey: .apple)
        }

        enum CodingKeys: String, CodingKey {
            case zebra, apple, mango
        }
    }

    private struct Stamp: Encodable {
        var at: Date
    }

    private struct Blob: Encodable {
        var bytes: Data
    }

    private enum Color: String, Encodable {
        case red
    }

    private struct Misc: Encodable {
        var color = Color.red
        var url = URL(string: "https://example.com/a?b=c")
        var amount = Decimal(string: "12.50")
        var matrix = [[1, 2], [3]]
        var people = [["name": "a"], ["name": "b"]]
    }

    @Test("A flat struct encodes every property in declaration order")
    func flat() throws {
        #expect(
            try encode(Flat())
                == ["name=Ferry", "count=3", "ratio=0.5", "small=-4", "big=18446744073709551615", "single=1.5"])
    }

    @Test("Nested values use bracketed names")
    func nested() throws {
        let user = User(name: "Ada", address: Address(city: "Oslo", geo: ["lat": 59.9]))
        #expect(try encode(user) == ["name=Ada", "address[city]=Oslo", "address[geo][lat]=59.9"])
    }

    @Test(
        "Arrays are named by the array encoding",
        arguments: [
            (FormEncoder.ArrayEncoding.brackets, ["tags[]=a", "tags[]=b"]),
            (.noBrackets, ["tags=a", "tags=b"]),
            (.indexInBrackets, ["tags[0]=a", "tags[1]=b"]),
        ])
    func arrays(encoding: FormEncoder.ArrayEncoding, expected: [String]) throws {
        #expect(try encode(Tags(tags: ["a", "b"]), with: FormEncoder(arrayEncoding: encoding)) == expected)
    }

    @Test("An empty array contributes no pairs")
    func emptyArray() throws {
        #expect(try encode(Tags(tags: [])) == [])
    }

    @Test(
        "Nested arrays and arrays of objects follow the array encoding",
        arguments: [
            (
                FormEncoder.ArrayEncoding.brackets,
                ["matrix[][]=1", "matrix[][]=2", "matrix[][]=3", "people[][name]=a", "people[][name]=b"]
            ),
            (
                .indexInBrackets,
                ["matrix[0][0]=1", "matrix[0][1]=2", "matrix[1][0]=3", "people[0][name]=a", "people[1][name]=b"]
            ),
        ])
    func nestedArrays(encoding: FormEncoder.ArrayEncoding, expected: [String]) throws {
        let pairs = try encode(Misc(), with: FormEncoder(arrayEncoding: encoding))
        #expect(Array(pairs.suffix(5)) == expected)
    }

    @Test(
        "Bools follow the bool encoding",
        arguments: [
            (FormEncoder.BoolEncoding.literal, ["on=true", "off=false", "list[]=true", "list[]=false"]),
            (.numeric, ["on=1", "off=0", "list[]=1", "list[]=0"]),
        ])
    func bools(encoding: FormEncoder.BoolEncoding, expected: [String]) throws {
        #expect(try encode(Flags(), with: FormEncoder(boolEncoding: encoding)) == expected)
    }

    @Test(
        "Dates follow the date encoding",
        arguments: [
            (FormEncoder.DateEncoding.iso8601, "at=2023-11-14T22:13:20Z"),
            (.secondsSince1970, "at=1700000000"),
            (.millisecondsSince1970, "at=1700000000000"),
            (.deferredToDate, "at=721692800.0"),
            (.formatted({ "day \(Int($0.timeIntervalSince1970) / 86_400)" }), "at=day 19675"),
        ])
    func dates(encoding: FormEncoder.DateEncoding, expected: String) throws {
        let stamp = Stamp(at: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try encode(stamp, with: FormEncoder(dateEncoding: encoding)) == [expected])
    }

    @Test("Fractional seconds keep their fraction; milliseconds round")
    func fractionalDates() throws {
        let stamp = Stamp(at: Date(timeIntervalSince1970: 1.25))
        #expect(try encode(stamp, with: FormEncoder(dateEncoding: .secondsSince1970)) == ["at=1.25"])
        let later = Stamp(at: Date(timeIntervalSince1970: 1.2346))
        #expect(try encode(later, with: FormEncoder(dateEncoding: .millisecondsSince1970)) == ["at=1235"])
    }

    @Test(
        "Data follows the data encoding",
        arguments: [
            (FormEncoder.DataEncoding.base64, ["bytes=AQL/"]),
            (.deferredToData, ["bytes[]=1", "bytes[]=2", "bytes[]=255"]),
        ])
    func data(encoding: FormEncoder.DataEncoding, expected: [String]) throws {
        #expect(try encode(Blob(bytes: Data([1, 2, 255])), with: FormEncoder(dataEncoding: encoding)) == expected)
    }

    @Test("nil optionals are left out, in structs and in arrays")
    func optionalsOmitted() throws {
        #expect(try encode(Optionals()) == ["second=2", "items[]=1", "items[]=3"])
        let indexed = try encode(Optionals(), with: FormEncoder(arrayEncoding: .indexInBrackets))
        #expect(indexed == ["second=2", "items[0]=1", "items[2]=3"])
    }

    @Test("An explicit encodeNil leaves the key out")
    func explicitNil() throws {
        struct Explicit: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: FormTestKey.self)
                try container.encodeNil(forKey: FormTestKey("gone"))
                try container.encode("here", forKey: FormTestKey("kept"))
            }
        }
        #expect(try encode(Explicit()) == ["kept=here"])
    }

    @Test("Pairs keep the order the value encodes its keys in")
    func orderKept() throws {
        #expect(try encode(Ordered()) == ["mango=3", "zebra=1", "apple=2"])
    }

    @Test("Raw values, URLs and decimals encode as text")
    func textValues() throws {
        let pairs = try encode(Misc())
        #expect(Array(pairs.prefix(3)) == ["color=red", "url=https://example.com/a?b=c", "amount=12.5"])
    }

    @Test("A dictionary encodes at the top level")
    func dictionary() throws {
        #expect(try encode(["only": ["x", "y"]]) == ["only[]=x", "only[]=y"])
    }

    @Test("Names and values are returned unescaped")
    func unescaped() throws {
        struct Special: Encodable {
            var query = "a&b=c d/é"
        }
        let pairs = try FormEncoder().encode(Special())
        #expect(pairs.map(\.name) == ["query"])
        #expect(pairs.map(\.value) == ["a&b=c d/é"])
        #expect(FormURLEncoding.query(pairs) == "query=a%26b%3Dc%20d%2F%C3%A9")
    }

    @Test("A value that is not keyed at the top level throws", arguments: TopLevel.all)
    func topLevelNotKeyed(input: TopLevel) throws {
        let error = try #require(throws: EncodingError.self) { try input.encode(FormEncoder()) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.debugDescription.contains("top level"))
    }

    @Test("A non-finite number throws")
    func nonFinite() {
        struct Bad: Encodable {
            var value = Double.infinity
        }
        #expect(throws: EncodingError.self) { try FormEncoder().encode(Bad()) }
    }

    @Test("A struct with only nil optionals encodes to no pairs")
    func allNil() throws {
        struct Empty: Encodable {
            var a: Int?
        }
        #expect(try encode(Empty()) == [])
    }
}

extension FormEncoderTests {
    /// A coding key made from any string.
    struct FormTestKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(_ string: String) {
            stringValue = string
        }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }

    /// A top-level value the form encoder must refuse.
    struct TopLevel: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let encode: @Sendable (FormEncoder) throws -> Void

        static let all: [TopLevel] = [
            TopLevel(testDescription: "Int") { _ = try $0.encode(42) },
            TopLevel(testDescription: "String") { _ = try $0.encode("text") },
            TopLevel(testDescription: "[Int]") { _ = try $0.encode([1, 2]) },
            TopLevel(testDescription: "nil") { _ = try $0.encode(Int?.none) },
            TopLevel(testDescription: "Date") { _ = try $0.encode(Date(timeIntervalSince1970: 0)) },
        ]
    }
}
