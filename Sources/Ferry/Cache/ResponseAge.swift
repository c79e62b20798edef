import Foundation

/// A stored response's current age, computed exactly as RFC 9111 §4.2.3 writes it, with each step kept so that it
/// can be checked.
///
/// All values are seconds. Two guards the RFC leaves implicit: `response_delay` and `resident_time` are never
/// negative (a local clock that went backwards must not make a response younger than its `Age` says).
struct ResponseAge: Sendable, Hashable {
    /// `apparent_age = max(0, response_time - date_value)`.
    var apparentAge: TimeInterval
    /// `response_delay = response_time - request_time`.
    var responseDelay: TimeInterval
    /// `corrected_age_value = age_value + response_delay`.
    var correctedAgeValue: TimeInterval
    /// `corrected_initial_age = max(apparent_age, corrected_age_value)`.
    var correctedInitialAge: TimeInterval
    /// `resident_time = now - response_time`.
    var residentTime: TimeInterval
    /// `current_age = corrected_initial_age + resident_time`.
    var currentAge: TimeInterval

    /// Computes the age.
    /// - Parameters:
    ///   - ageValue: The `Age` header's seconds (`age_value`), `0` without one.
    ///   - dateValue: The `Date` header's instant (`date_value`).
    ///   - requestTime: When the request was sent (`request_time`).
    ///   - responseTime: When the response was received (`response_time`).
    ///   - now: The current time.
    init(ageValue: TimeInterval, dateValue: Date, requestTime: Date, responseTime: Date, now: Date) {
        apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        correctedAgeValue = ageValue + responseDelay
        correctedInitialAge = max(apparentAge, correctedAgeValue)
        residentTime = max(0, now.timeIntervalSince(responseTime))
        currentAge = correctedInitialAge + residentTime
    }

    /// The `Age` header's value (`age_value`, §5.1): delta-seconds; `0` when absent or invalid. When it is a list
    /// (it is a singleton field, so a sender erred: `Age: 0, 7200`, or two lines), the first member counts and the
    /// others are discarded, as §5.1 says a cache should.
    /// - Parameter headers: The response's header fields.
    /// - Returns: The seconds.
    static func ageValue(of headers: HTTPHeaders) -> TimeInterval {
        guard let first = headers.listElements(for: "Age").first else { return 0 }
        return TimeInterval(CacheControl.deltaSeconds(first) ?? 0)
    }

    /// The `Age` header to send with a response served from the cache (§5.1): whole seconds, rounded down, at most
    /// 2147483648 (§1.2.2).
    var headerValue: String {
        let limit = TimeInterval(CacheControl.deltaSecondsLimit)
        return String(Int(min(max(0, currentAge), limit).rounded(.down)))
    }
}
