import Foundation

/// Reads a `Retry-After` header (RFC 9110 §10.2.3): delta-seconds, or an HTTP-date in any of the three forms
/// RFC 9110 §5.6.7 requires a recipient to accept.
enum RetryAfter {
    /// The wait `value` asks for, measured from `now`.
    /// - Parameters:
    ///   - value: The header value: `120`, `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` or
    ///     `Sun Nov  6 08:49:37 1994`.
    ///   - now: The current wall-clock time, for dates.
    /// - Returns: The wait; zero for a date in the past; `nil` when the value is neither form.
    static func delay(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // More digits than an Int holds is still "a long time".
            return .seconds(Int64(trimmed) ?? Int64.max / 1_000_000_000_000)
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds > 0 ? .milliseconds(Int64((seconds * 1000).rounded(.up))) : .zero
    }
}
