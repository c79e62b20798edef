import Foundation

/// The three HTTP-date forms (RFC 9110 §5.6.7), parsed by hand: no `DateFormatter`, which is neither `Sendable` nor
/// cheap. Shared by `Retry-After` and the HTTP cache (`Date`, `Expires`, `Last-Modified`).
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Parses `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), `Sunday, 06-Nov-94 08:49:37 GMT` (RFC 850) or
    /// `Sun Nov  6 08:49:37 1994` (asctime), following RFC 9110 §5.6.7's grammar to the character: one space between
    /// parts, the comma, two-digit hours, minutes and seconds. Names (weekday, month, `GMT`) are matched without
    /// regard to case, as RFC 9111 §4.2 has caches do. Anything else is invalid, which for `Expires` means already
    /// expired (RFC 9111 §5.3): a date that only looks like one is not trusted to keep a response fresh.
    /// - Parameter text: The date; spaces and tabs around it are ignored.
    /// - Returns: The instant, or `nil` when `text` is none of the forms or names an impossible date.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.trimmingOWS.utf8)
        if bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20,
            bytes[16] == 0x20, bytes[25] == 0x20, isGMT(bytes[26...]), isDayName(bytes[0..<3])
        {
            // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT".
            return make(
                day: digits(bytes[5..<7]), month: bytes[8..<11], year: digits(bytes[12..<16]), time: bytes[17..<25])
        }
        if let comma = bytes.firstIndex(of: UInt8(ascii: ",")), bytes.count == comma + 24,
            isDayName(bytes[..<comma]), bytes[comma + 1] == 0x20, bytes[comma + 4] == UInt8(ascii: "-"),
            bytes[comma + 8] == UInt8(ascii: "-"), bytes[comma + 11] == 0x20, bytes[comma + 20] == 0x20,
            isGMT(bytes[(comma + 21)...]), let yy = digits(bytes[(comma + 9)..<(comma + 11)])
        {
            // RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT". A two-digit year more than 50 years in the future means the
            // past century (RFC 9110).
            return make(
                day: digits(bytes[(comma + 2)..<(comma + 4)]), month: bytes[(comma + 5)..<(comma + 8)],
                year: yy + (yy >= 70 ? 1900 : 2000), time: bytes[(comma + 12)..<(comma + 20)])
        }
        if bytes.count == 24, bytes[3] == 0x20, bytes[7] == 0x20, bytes[10] == 0x20, bytes[19] == 0x20,
            isDayName(bytes[0..<3])
        {
            // asctime: "Sun Nov  6 08:49:37 1994", the day as two digits or a space and one digit.
            let day = bytes[8] == 0x20 ? digits(bytes[9..<10]) : digits(bytes[8..<10])
            return make(day: day, month: bytes[4..<7], year: digits(bytes[20..<24]), time: bytes[11..<19])
        }
        return nil
    }

    private static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    private static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    private static func isDayName(_ bytes: ArraySlice<UInt8>) -> Bool {
        let name = lowercased(bytes)
        return dayNames.contains(name) || longDayNames.contains(name)
    }

    private static func isGMT(_ bytes: ArraySlice<UInt8>) -> Bool { lowercased(bytes) == "gmt" }

    /// The number the bytes spell, when every one is a digit.
    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    private static func make(day: Int?, month: ArraySlice<UInt8>, year: Int?, time: ArraySlice<UInt8>) -> Date? {
        let start = time.startIndex
        guard let month = months.firstIndex(of: lowercased(month)).map({ $0 + 1 }),
            let day, (1...31).contains(day), let year,
            time[start + 2] == UInt8(ascii: ":"), time[start + 5] == UInt8(ascii: ":"),
            let hour = digits(time[start..<(start + 2)]), let minute = digits(time[(start + 3)..<(start + 5)]),
            let second = digits(time[(start + 6)..<(start + 8)]),
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
