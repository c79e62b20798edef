import Ferry
import Testing

@Suite("FormURLEncoding")
struct FormURLEncodingTests {
    @Test(
        "percentEscape escapes everything but unreserved characters",
        arguments: [
            ("abcXYZ019-._~", "abcXYZ019-._~"), (" ", "%20"), ("+", "%2B"), ("&", "%26"), ("=", "%3D"), ("/", "%2F"),
            ("?", "%3F"), ("#", "%23"), (";", "%3B"), (",", "%2C"), (":", "%3A"), ("@", "%40"), ("!", "%21"),
            ("$", "%24"), ("'", "%27"), ("(", "%28"), (")", "%29"), ("*", "%2A"), ("%", "%25"), ("[]", "%5B%5D"),
            ("\"<>\\^`{|}", "%22%3C%3E%5C%5E%60%7B%7C%7D"), ("é", "%C3%A9"), ("😀", "%F0%9F%98%80"),
            ("\n\u{0}", "%0A%00"), ("a b+c", "a%20b%2Bc"), ("", ""),
        ])
    func percentEscape(input: String, expected: String) {
        #expect(FormURLEncoding.percentEscape(input) == expected)
    }

    @Test("Spaces can be written as plus for form bodies")
    func plusForSpace() {
        #expect(FormURLEncoding.percentEscape("a b+c", spaces: .plus) == "a+b%2Bc")
        #expect(FormURLEncoding.query([(name: "q", value: "x y")], spaces: .plus) == "q=x+y")
    }

    @Test("query joins escaped pairs in order without a leading '?'")
    func query() {
        let pairs: [(name: String, value: String)] = [
            ("a", "1"), ("b", "x y"), ("a", "2"), ("tags[]", "&="), ("empty", ""),
        ]
        #expect(FormURLEncoding.query(pairs) == "a=1&b=x%20y&a=2&tags%5B%5D=%26%3D&empty=")
        #expect(FormURLEncoding.query([]) == "")
    }

    @Test("pairs(fromQuery:) decodes %XX and '+'")
    func decode() {
        let pairs = FormURLEncoding.pairs(fromQuery: "?a=1&b=x+y%20z&&c&d=%C3%A9%26&e=100%&f=%zz&a=2")
        #expect(pairs.map(\.name) == ["a", "b", "c", "d", "e", "f", "a"])
        #expect(pairs.map(\.value) == ["1", "x y z", "", "é&", "100%", "%zz", "2"])
    }

    @Test("Escaping and decoding round-trip", arguments: ["plain", "a b+c&d=e", "é/😀?#[]", "%41", " + "])
    func roundTrip(value: String) {
        let query = FormURLEncoding.query([(name: "k \(value)", value: value)])
        let pairs = FormURLEncoding.pairs(fromQuery: query)
        #expect(pairs.count == 1)
        #expect(pairs.first?.name == "k \(value)")
        #expect(pairs.first?.value == value)
    }

    @Test("Decoded pairs also fit unlabelled tuples")
    func unlabelled() {
        let pairs: [(String, String)] = FormURLEncoding.pairs(fromQuery: "a=1").map { ($0.name, $0.value) }
        #expect(pairs.first?.0 == "a")
    }
}
