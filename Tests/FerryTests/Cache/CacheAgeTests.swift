@testable import Ferry
import Foundation
import Testing

@Suite("Cache age calculation (RFC 9111 §4.2.3)")
struct CacheAgeTests {
    typealias F = CacheFixtures

    @Test func everyStepWithAnAgeHeader() {
        // Sent at 0, received at 2, the server's Date says 1, an upstream cache says Age 10, and it is now 32.
        let stored = F.stored(["Age": "10"], requestTime: 0, responseTime: 2, date: 1)
        let age = stored.age(now: F.at(32))
        #expect(age.apparentAge == 1)  // max(0, 2 - 1)
        #expect(age.responseDelay == 2)  // 2 - 0
        #expect(age.correctedAgeValue == 12)  // 10 + 2
        #expect(age.correctedInitialAge == 12)  // max(1, 12)
        #expect(age.residentTime == 30)  // 32 - 2
        #expect(age.currentAge == 42)  // 12 + 30
        #expect(age.headerValue == "42")
    }

    @Test func aServerClockBehindMakesTheApparentAgeWin() {
        // Date 100 s before the request was sent; no Age.
        let stored = F.stored([:], requestTime: 0, responseTime: 1, date: -100)
        let age = stored.age(now: F.at(11))
        #expect(age.apparentAge == 101)
        #expect(age.responseDelay == 1)
        #expect(age.correctedAgeValue == 1)
        #expect(age.correctedInitialAge == 101)
        #expect(age.residentTime == 10)
        #expect(age.currentAge == 111)
    }

    @Test func aServerClockAheadGivesNoNegativeApparentAge() {
        let stored = F.stored([:], requestTime: 0, responseTime: 1, date: 50)
        let age = stored.age(now: F.at(1))
        #expect(age.apparentAge == 0)
        #expect(age.correctedInitialAge == 1)
        #expect(age.residentTime == 0)
        #expect(age.currentAge == 1)
    }

    @Test func withoutDateTheResponseTimeStandsIn() {
        let stored = F.stored(["Age": "5"], requestTime: 10, responseTime: 13, date: nil)
        let age = stored.age(now: F.at(20))
        #expect(age.apparentAge == 0)
        #expect(age.correctedAgeValue == 8)  // 5 + 3
        #expect(age.currentAge == 15)  // 8 + 7
    }

    @Test func aLocalClockThatWentBackIsNotANegativeResidentTime() {
        let stored = F.stored([:], requestTime: 0, responseTime: 10, date: 10)
        let age = stored.age(now: F.at(5))
        #expect(age.residentTime == 0)
        #expect(age.currentAge == 10)  // the 10 s response delay only
    }

    @Test func fractionalTimes() {
        let stored = StoredResponse(
            requestHeaders: [:], response: F.response(200, ["Date": F.httpDate(0)]), requestTime: F.at(0.25),
            responseTime: F.at(0.75))
        let age = stored.age(now: F.at(3.5))
        #expect(age.responseDelay == 0.5)
        #expect(age.correctedInitialAge == 0.75)  // apparent 0.75 > corrected 0.5
        #expect(age.currentAge == 3.5)
        #expect(age.headerValue == "3")  // rounded down
    }

    @Test(arguments: [
        ("10", 10.0), (" 10 ", 10), ("abc", 0), ("-5", 0), ("1.5", 0), ("", 0), ("3, 9", 3), ("9, 3", 9), ("abc, 9", 0),
        ("99999999999999999999", 2_147_483_648),
    ])
    func ageHeaderValue(value: String, expected: TimeInterval) {
        #expect(ResponseAge.ageValue(of: ["Age": value]) == expected)
    }

    @Test func noAgeHeaderIsZero() {
        #expect(ResponseAge.ageValue(of: [:]) == 0)
    }

    /// §5.1: the first member of a list-based `Age` (cache-tests.fyi's `age-parse-prefix-twoline` and
    /// `age-parse-suffix-twoline`).
    @Test func repeatedAgeFieldsTakeTheFirst() {
        let headers: HTTPHeaders = [HTTPHeader(name: "Age", value: "4"), HTTPHeader(name: "age", value: "40")]
        #expect(ResponseAge.ageValue(of: headers) == 4)
        let reversed: HTTPHeaders = [HTTPHeader(name: "Age", value: "40"), HTTPHeader(name: "age", value: "4")]
        #expect(ResponseAge.ageValue(of: reversed) == 40)
    }

    @Test func theAgeSentIsCappedAt2To31() {
        let stored = F.stored(["Age": "2147483648"], requestTime: 0, responseTime: 10)
        let age = stored.age(now: F.at(1_000))
        #expect(age.currentAge == 2_147_483_648 + 10 + 990)
        #expect(age.headerValue == "2147483648")
    }
}
