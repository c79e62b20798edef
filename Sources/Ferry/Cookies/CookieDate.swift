import Foundation

/// Parses the date of a cookie's `Expires` attribute with the algorithm of RFC 6265 §5.1.1, which reads the three
/// HTTP-date forms (`Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`)
/// and the variants servers really send (`Sun, 06-Nov-1994 08:49:37 GMT`, no weekday, other separators).
///
/// The text is cut into tokens at delimiters; the first token that reads as a time, then as a day of the month, then
/// as a month, then as a year, gives that field. Any byte is accepted: the parser never traps.
enum CookieDate {
    /// The instant `text` names, in UTC.
    /// - Parameter text: The attribute value.
    /// - Returns: The instant, or `nil` when a field is missing or out of range, or the date does not exist.
    static func parse(_ text: some Collection<UInt8>) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(Array(text)) {
            if time == nil, let found = Self.time(token) {
                time = found
            } else if day == nil, let found = number(token, digits: 1...2) {
                day = found
            } else if month == nil, let found = Self.month(token) {
                month = found
            } else if year == nil, let found = number(token, digits: 2...4) {
                year = found
            }
        }
        guard let time, let day, let month, var year else { return nil }
        if (70...99).contains(year) {
            year += 1900
        } else if (0...69).contains(year) {
            year += 2000
        }
        guard year >= 1601, (1...HTTPDate.daysIn(month: month, year: year)).contains(day), time.hour <= 23,
            time.minute <= 59, time.second <= 59
        else { return nil }
        let days = HTTPDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The date-tokens of `bytes`: runs of non-delimiters.
    private static func tokens(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: isDelimiter)
    }

    /// `%x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    /// `hms-time ( non-digit *OCTET )`, where `hms-time = time-field ":" time-field ":" time-field` and each field is
    /// one or two digits.
    private static func time(_ token: ArraySlice<UInt8>) -> (hour: Int, minute: Int, second: Int)? {
        var rest = token
        var fields: [Int] = []
        for index in 0..<3 {
            let digits = rest.prefix(while: isDigit)
            guard (1...2).contains(digits.count) else { return nil }
            fields.append(value(of: digits))
            rest = rest.dropFirst(digits.count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        return (fields[0], fields[1], fields[2])
    }

    /// `n*mDIGIT ( non-digit *OCTET )`: the number the token starts with, when it has as many digits as allowed.
    private static func number(_ token: ArraySlice<UInt8>, digits allowed: ClosedRange<Int>) -> Int? {
        let digits = token.prefix(while: isDigit)
        return allowed.contains(digits.count) ? value(of: digits) : nil
    }

    private static let monthNames: [[UInt8]] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ].map { Array($0.utf8) }

    /// `( "jan" / "feb" / … / "dec" ) *OCTET`, ignoring case: the month's number from 1.
    private static func month(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = token.prefix(3).map { $0 | 0x20 }
        return monthNames.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// The value of at most four digits.
    private static func value(of digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
