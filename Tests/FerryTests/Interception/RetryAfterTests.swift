@testable import Ferry
import Foundation
import Testing

@Suite("Retry-After parsing")
struct RetryAfterTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT, the example date of RFC 9110.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: [("0", Duration.zero), ("120", .seconds(120)), ("  7 ", .seconds(7))])
    func deltaSeconds(value: String, expected: Duration) {
        #expect(RetryAfter.delay(value, now: Date()) == expected)
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850
        "Sun Nov  6 08:49:37 1994",  // asctime
    ])
    func everyHTTPDateFormParses(value: String) {
        #expect(HTTPDate.parse(value) == Self.example)
    }

    @Test func aDateIsMeasuredFromNow() {
        let now = Self.example.addingTimeInterval(-90)
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(90))
    }

    @Test func aDateInThePastMeansNow() {
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: Date()) == .zero)
    }

    @Test(arguments: [
        "", "-5", "1.5", "soon", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 31 Feb 1994 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
    ])
    func malformedValuesAreIgnored(value: String) {
        #expect(RetryAfter.delay(value, now: Date()) == nil)
    }

    @Test func aHugeDeltaStaysLarge() throws {
        let delay = try #require(RetryAfter.delay("99999999999999999999999", now: Date()))
        #expect(delay > .seconds(1_000_000))
    }
}
