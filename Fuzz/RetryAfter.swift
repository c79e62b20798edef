// libFuzzer target: RetryAfter and HTTPDate.
// Properties: reading is total; a wait is never negative; digits alone are seconds; a date that parses, written
// back as an IMF-fixdate, parses to the same instant.
import Foundation

@testable import Ferry

/// libFuzzer's entry point: checks the property above on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRetryAfter(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let now = Date(timeIntervalSince1970: TimeInterval(input.seed() % 4_102_444_800))
    let value = String(decoding: input.rest(), as: UTF8.self)

    if let delay = RetryAfter.delay(value, now: now), delay < .zero {
        fuzzFailure("negative wait \(delay) for \(value.debugDescription)")
    }
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seconds = Int64(trimmed),
        RetryAfter.delay(value, now: now) != .seconds(seconds)
    {
        fuzzFailure("\(value.debugDescription) is not \(seconds) seconds")
    }
    if let date = HTTPDate.parse(trimmed) {
        let written = imfFixdate(date)
        guard HTTPDate.parse(written) == date else {
            fuzzFailure("\(trimmed.debugDescription) → \(date) → \(written) does not read back")
        }
    }
    return 0
}

private func imfFixdate(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0)!
    let parts = calendar.dateComponents([.weekday, .year, .month, .day, .hour, .minute, .second], from: date)
    let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
    let year = String(parts.year ?? 0)
    return "\(weekdays[(parts.weekday ?? 1) - 1]), \(two(parts.day)) \(months[(parts.month ?? 1) - 1]) "
        + "\(String(repeating: "0", count: max(0, 4 - year.count)) + year) "
        + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
}
