import Foundation
import Testing

@testable import Ferry

@Suite("Log text")
struct LogTextTests {
    @Test(arguments: [
        ("https://ada:pw@api.test/v1?q=1", "https://api.test/v1?q=1"),
        ("https://ada@api.test/v1", "https://api.test/v1"),
        ("https://:pw@api.test/", "https://api.test/"),
        ("http://api.test/v1?q=1#f", "http://api.test/v1?q=1#f"),
    ])
    func aURLIsWrittenWithoutItsUserOrPassword(url: String, expected: String) throws {
        let text = LogText.url(try #require(URL(string: url)))
        #expect(text == expected)
        #expect(!text.contains("pw") && !text.contains("ada"))
    }
}
