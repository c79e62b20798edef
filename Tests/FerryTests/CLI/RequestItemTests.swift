import Testing

@testable import FerryCLI

@Suite("ferry: request items")
struct RequestItemTests {
    @Test(
        "each separator makes its kind of item",
        arguments: [
            ("name=Ada", RequestItem.field(name: "name", value: "Ada")),
            ("age:=42", .rawJSON(name: "age", json: "42")),
            ("tags:=[\"a\",\"b\"]", .rawJSON(name: "tags", json: "[\"a\",\"b\"]")),
            ("q==a b", .query(name: "q", value: "a b")),
            ("X-Trace:7", .header(name: "X-Trace", value: "7")),
            ("Accept: text/plain", .header(name: "Accept", value: " text/plain")),
            ("User-Agent:", .header(name: "User-Agent", value: "")),
            ("photo@cat.jpg", .file(name: "photo", path: "cat.jpg")),
            ("bio=@bio.txt", .fieldFromFile(name: "bio", path: "bio.txt")),
            ("doc:=@doc.json", .rawJSONFromFile(name: "doc", path: "doc.json")),
        ])
    func separators(argument: String, expected: RequestItem) throws {
        #expect(try RequestItem(parsing: argument) == expected)
    }

    @Test("the first separator wins, and the longest where several start at once")
    func precedence() throws {
        #expect(try RequestItem(parsing: "a=b:c") == .field(name: "a", value: "b:c"))
        #expect(try RequestItem(parsing: "Referer:http://x/?a=b") == .header(name: "Referer", value: "http://x/?a=b"))
        #expect(try RequestItem(parsing: "a==b=c") == .query(name: "a", value: "b=c"))
        #expect(try RequestItem(parsing: "mail=ada@example.com") == .field(name: "mail", value: "ada@example.com"))
        #expect(try RequestItem(parsing: "a:=@f") == .rawJSONFromFile(name: "a", path: "f"))
    }

    @Test("a backslash in the name keeps a separator literal")
    func escapes() throws {
        #expect(try RequestItem(parsing: #"a\=b=c"#) == .field(name: "a=b", value: "c"))
        #expect(try RequestItem(parsing: #"x\:y:=1"#) == .rawJSON(name: "x:y", json: "1"))
        #expect(try RequestItem(parsing: #"user\@host@f"#) == .file(name: "user@host", path: "f"))
        #expect(try RequestItem(parsing: #"k=\n"#) == .field(name: "k", value: #"\n"#))
    }

    @Test("an item without a separator or without a name is a usage error")
    func invalid() {
        #expect(throws: UsageError.self) { try RequestItem(parsing: "plain") }
        #expect(throws: UsageError.self) { try RequestItem(parsing: "=value") }
        #expect(throws: UsageError.self) { try RequestItem(parsing: ":value") }
        #expect(throws: UsageError.self) { try RequestItem(parsing: "Bad Name:value") }
    }
}
