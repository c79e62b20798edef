@testable import Ferry
import Foundation
import Testing

@Suite("Cookie dates (RFC 6265 §5.1.1)")
struct CookieDateTests {
    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777),  // IMF-fixdate
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),  // RFC 850
        ("Sun Nov  6 08:49:37 1994", 784_111_777),  // asctime
        ("Sun, 06-Nov-1994 08:49:37 GMT", 784_111_777),  // Netscape's form
        ("06 nov 1994 08:49:37", 784_111_777),  // no weekday, lowercase month
        ("Sun, 06 November 1994 8:49:37 UTC", 784_111_777),  // long month, one-digit hour
        ("Wed, 21 Oct 2037 07:28:00 GMT", 2_139_722_880),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        ("Tue, 29 Feb 2000 00:00:00 GMT", 951_782_400),
        ("01 Jan 69 00:00:00", 3_124_224_000),  // 69 → 2069
        ("Mon, 01 Jan 1601 00:00:00 GMT", -11_644_473_600),
    ])
    func readsTheFormsServersSend(text: String, seconds: Int) throws {
        let date = try #require(CookieDate.parse(text.utf8))
        #expect(date.timeIntervalSince1970 == TimeInterval(seconds))
    }

    @Test(arguments: [
        "",
        "tomorrow",
        "Sun, 06 Nov 1994",  // no time
        "08:49:37 Nov 1994",  // no day
        "Sun, 06 1994 08:49:37 GMT",  // no month
        "Sun, 06 Nov 08:49:37 GMT",  // no year
        "Fri, 30 Feb 2001 00:00:00 GMT",  // does not exist
        "Thu, 29 Feb 1900 00:00:00 GMT",  // 1900 is no leap year
        "Sun, 32 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49:60 GMT",
        "Sun, 06 Nov 1600 08:49:37 GMT",  // before 1601
        "Sun, 06 Nov 19945 08:49:37 GMT",  // five-digit year
        "Sun, 006 Nov 1994 08:49:37 GMT",  // three-digit day
        "Sun, 06 Nov 1994 008:49:37 GMT",
    ])
    func refusesWhatIsNoDate(text: String) {
        #expect(CookieDate.parse(text.utf8) == nil)
    }

    @Test(.ownThreads) func anyBytesGiveADateOrNil() {
        var generator = SplitMix64(seed: 6265)
        let alphabet = Array("0123456789:,- JanFebNovGMT\t\u{0}\u{7F}\u{FF}".utf8) + [0xC3, 0xA9]
        var parsed = 0
        for _ in 0..<5_000 {
            let count = Int(generator.next() % 40)
            let bytes = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            if CookieDate.parse(bytes) != nil { parsed += 1 }
        }
        #expect(parsed < 5_000)
    }
}

/// A small seeded generator, so random inputs are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
