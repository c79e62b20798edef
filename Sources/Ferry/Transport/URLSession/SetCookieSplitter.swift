/// Splits the one `Set-Cookie` value FoundationNetworking makes of several fields (it joins them with `", "`) back
/// into the fields the server sent.
///
/// A comma starts a new cookie only where what follows it, after spaces, is a cookie name and `=`: so the comma inside
/// `Expires=Wed, 21 Oct 2037 07:28:00 GMT` stays, because `21 Oct…` is no name. What cannot be recovered: an
/// attribute value that itself contains `, name=` (no real cookie attribute does), and which fields were joined when
/// the server sent one field with a comma-separated list in it.
enum SetCookieSplitter {
    /// The cookies in `joined`, each as its own field value.
    static func split(_ joined: String) -> [String] {
        let bytes = Array(joined.utf8)
        var cookies: [String] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: ",") && startsCookie(bytes, after: index) {
            cookies.append(trimmed(bytes[start..<index]))
            start = index + 1
        }
        cookies.append(trimmed(bytes[start...]))
        return cookies.filter { !$0.isEmpty }
    }

    /// Whether a cookie name and `=` follow the comma at `comma`, after optional spaces.
    private static func startsCookie(_ bytes: [UInt8], after comma: Int) -> Bool {
        var index = comma + 1
        while index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") { index += 1 }
        let nameStart = index
        while index < bytes.endIndex, isNameByte(bytes[index]) { index += 1 }
        return index > nameStart && index < bytes.endIndex && bytes[index] == UInt8(ascii: "=")
    }

    /// A token character of RFC 9110 (what a cookie name is made of).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        var slice = bytes
        while let first = slice.first, first == UInt8(ascii: " ") { slice = slice.dropFirst() }
        while let last = slice.last, last == UInt8(ascii: " ") { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }
}
