// libFuzzer target: FormURLEncoding.
// Properties: pairs written by `query(_:spaces:)` read back unchanged with `pairs(fromQuery:)`, for both space
// encodings; and any text read with `pairs(fromQuery:)`, written and read again, gives the same pairs.
import Foundation

@testable import Ferry

/// libFuzzer's entry point: checks the property above on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzForm(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let spaces: FormURLEncoding.SpaceEncoding = input.byte() % 2 == 0 ? .plus : .percentEscaped
    let bytes = input.rest()

    // Round trip of pairs: the input, split at 0x00 into names and values, as UTF-8 (invalid bytes become U+FFFD).
    let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    var pairs: [(name: String, value: String)] = []
    var index = 0
    while index < fields.count {
        pairs.append((fields[index], index + 1 < fields.count ? fields[index + 1] : ""))
        index += 2
    }
    let query = FormURLEncoding.query(pairs, spaces: spaces)
    for byte in query.utf8 where !isAllowedInQuery(byte) {
        fuzzFailure("query \(query.debugDescription) holds byte \(byte)")
    }
    let readBack = FormURLEncoding.pairs(fromQuery: query)
    guard equal(readBack, pairs) else { fuzzFailure("round trip changed \(pairs) into \(readBack)") }

    // Arbitrary text: reading is total, and the pairs it gives are a fixed point of write-then-read.
    let text = String(decoding: bytes, as: UTF8.self)
    let parsed = FormURLEncoding.pairs(fromQuery: text)
    let reparsed = FormURLEncoding.pairs(fromQuery: FormURLEncoding.query(parsed, spaces: spaces))
    guard equal(parsed, reparsed) else { fuzzFailure("\(text.debugDescription): \(parsed) became \(reparsed)") }
    return 0
}

private func isAllowedInQuery(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default: "-._~%+=&".utf8.contains(byte)
    }
}

private func equal(_ a: [(name: String, value: String)], _ b: [(name: String, value: String)]) -> Bool {
    a.count == b.count
        && zip(a, b).allSatisfy {
            $0.name.unicodeScalars.elementsEqual($1.name.unicodeScalars)
                && $0.value.unicodeScalars.elementsEqual($1.value.unicodeScalars)
        }
}
