import Foundation

/// The three HTTP-date forms (RFC 9110 §5.6.7), parsed by hand: no `DateFormatter`, which is neither `Sendable` nor
/// cheap. Shared by `Retry-After` and the HTTP cache (`Date`, `Expires`, `Last-Modified`).
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Parses `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), `Sunday, 06-Nov-94 08:49:37 GMT` (RFC 850) or
    /// `Sun Nov  6 08:49:37 1994` (asctime).
    /// - Parameter text: The date.
    /// - Returns: The instant, or `nil` when `text` is none of the forms or names an impossible date.
    static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        switch words.count {
        case 6 where words[5] == "GMT":
            // IMF-fixdate: weekday, day, month, year, time, "GMT".
            return make(day: words[1], month: words[2], year: words[3], time: words[4])
        case 4 where words[3] == "GMT":
            // RFC 850: weekday, day-month-yy, time, "GMT".
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, parts[2].count == 2, let yy = Int(parts[2]) else { return nil }
            // RFC 9110: a two-digit year more than 50 years in the future means the past century.
            let year = yy + (yy >= 70 ? 1900 : 2000)
            return make(day: parts[0], month: parts[1], year: String(year), time: words[2])
        case 5:
            // asctime: weekday, month, day, time, year.
            return make(day: words[2], month: words[1], year: words[4], time: words[3])
        default:
            return nil
        }
    }

    private static func make(day: String, month: String, year: String, time: String) -> Date? {
        let clock = time.split(separator: ":")
        guard let month = months.firstIndex(of: month.lowercased()).map({ $0 + 1 }),
            let day = Int(day), (1...31).contains(day),
            year.count == 4, let year = Int(year),
            clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        // Before 1583, Foundation's Gregorian calendar is Julian (the 1582 reform): kept for those, so that a date
        // reads the same as Foundation formats it.
        guard year >= 1583 else { return julianEraDate(year: year, month: month, day: day, hour, minute, second) }
        guard day <= daysIn(month: month, year: year) else { return nil }
        let seconds =
            daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60
            + min(second, 59)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func julianEraDate(
        year: Int, month: Int, day: Int, _ hour: Int, _ minute: Int, _ second: Int
    ) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    // Plain arithmetic rather than `Calendar` and `DateComponents`, which made a cache hit spend most of its time
    // here: `cached-sequential` in Benchmarks/README.md, "The HTTP cache".

    /// The days in `month` (1 to 12) of `year` in the proleptic Gregorian calendar (also `CookieDate`'s).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The days from 1970-01-01 to the given date in the proleptic Gregorian calendar (negative before it; Howard
    /// Hinnant's `days_from_civil`, counting years from March so that the leap day ends a year; also `CookieDate`'s).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
