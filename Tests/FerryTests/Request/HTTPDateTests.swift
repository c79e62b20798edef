@testable import Ferry
import Foundation
import Testing

@Suite("HTTP-date parsing (RFC 9110 §5.6.7)")
struct HTTPDateTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT, the example date of RFC 9110.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "Sun Nov 06 08:49:37 1994", "  Sun, 06 Nov 1994 08:49:37 GMT\\t", "sUN, 06 nOV 1994 08:49:37 gMT",
    ])
    func theThreeFormsInAnyCase(text: String) {
        #expect(HTTPDate.parse(text.replacingOccurrences(of: "\\t", with: "\t")) == Self.example)
    }

    @Test(arguments: [
        "Sun 06 Nov 1994 08:49:37 GMT",  // no comma
        "Sun,  06 Nov 1994 08:49:37 GMT", "Sun, 06  Nov 1994 08:49:37 GMT",  // two spaces
        "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49:7 GMT",  // one-digit time parts
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",  // one-digit day, two-digit year
        "Sun, 06-Nov-1994 08:49:37 GMT", "Sun, 06 Nov 1994 08.49.37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC",
        "Xyz, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov 6 08:49:37 1994",
        "Sun, 06 Nov 1994 08:49:37 GMT extra", "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
    ])
    func nearMissesAreInvalid(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
