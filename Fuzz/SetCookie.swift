// libFuzzer target: SetCookieSplitter (the URLSession transport's split of FoundationNetworking's joined
// Set-Cookie value).
// Properties: splitting is total and its pieces are non-empty and trimmed; cookies joined with ", " split back
// into the same cookies when no attribute value holds a comma followed by a name and '=' (what cannot be
// recovered, by design); splitting is idempotent.
import Foundation

@testable import Ferry

/// libFuzzer's entry point: checks the property above on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSetCookie(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let arbitrary = String(decoding: input.field(separatedBy: 0), as: UTF8.self)
    let pieces = SetCookieSplitter.split(arbitrary)
    for piece in pieces where piece.isEmpty || piece.hasPrefix(" ") || piece.hasSuffix(" ") {
        fuzzFailure("piece \(piece.debugDescription) of \(arbitrary.debugDescription)")
    }
    let again = pieces.flatMap(SetCookieSplitter.split)
    guard again == pieces else { fuzzFailure("splitting \(pieces) again gave \(again)") }

    // Cookies built from the input: a token name, '=', a value without ',' or ';', and attributes from a list.
    var cookies: [String] = []
    while !input.isAtEnd, cookies.count < 6 {
        let name = String(decoding: input.field(separatedBy: 0).filter(isToken), as: UTF8.self)
        let value = String(decoding: input.field(separatedBy: 0).filter { isValueByte($0) }, as: UTF8.self)
        let attributes = [
            "", "; Path=/", "; Expires=Wed, 21 Oct 2037 07:28:00 GMT", "; Max-Age=60", "; HttpOnly; Secure",
            "; Domain=example.com; SameSite=Lax", "; Expires=Sun, 06 Nov 1994 08:49:37 GMT; Path=/a,b",
        ]
        let attribute = attributes[Int(input.byte()) % attributes.count]
        guard !name.isEmpty else { continue }
        cookies.append("\(name)=\(value)\(attribute)")
    }
    let split = SetCookieSplitter.split(cookies.joined(separator: ", "))
    guard split == cookies else { fuzzFailure("\(cookies) split as \(split)") }
    return 0
}

private func isToken(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

/// RFC 6265 cookie-octets: no control characters, space, '"', ',', ';' or '\'.
private func isValueByte(_ byte: UInt8) -> Bool {
    byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: ",")
        && byte != UInt8(ascii: ";") && byte != UInt8(ascii: "\\")
}
