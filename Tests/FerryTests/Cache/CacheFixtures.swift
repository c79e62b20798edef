@testable import Ferry
import Foundation

/// Shared values for the cache tests: one instant, one URL, and builders that take every time as an argument.
enum CacheFixtures {
    /// Sun, 06 Nov 1994 08:49:37 GMT, the example date of RFC 9110.
    static let t0 = Date(timeIntervalSince1970: 784_111_777)
    /// The target of every request here.
    static let url = URL(string: "https://example.com/a")!

    /// `t0` moved by `seconds`, written as an IMF-fixdate.
    static func httpDate(_ seconds: TimeInterval) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: t0.addingTimeInterval(seconds))
    }

    /// `t0` moved by `seconds`.
    static func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    /// A request to ``url``.
    static func request(_ headers: HTTPHeaders = [:], method: HTTPMethod = .get) -> Request {
        Request(method, url: url, headers: headers)
    }

    /// A response head from ``url``.
    static func response(_ status: Int = 200, _ headers: HTTPHeaders = [:]) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: headers, url: url)
    }

    /// A stored response whose request was sent at `t0 + requestTime` and answered at `t0 + responseTime`, with a
    /// `Date` of `t0 + responseTime` unless `headers` has one (pass `date: nil` for none).
    static func stored(
        _ headers: HTTPHeaders = [:], status: Int = 200, requestHeaders: HTTPHeaders = [:],
        requestTime: TimeInterval = 0, responseTime: TimeInterval = 0, date: TimeInterval? = 0
    ) -> StoredResponse {
        var headers = headers
        if let date, !headers.contains("Date") { headers.add(name: "Date", value: httpDate(date)) }
        return StoredResponse(
            requestHeaders: requestHeaders, response: response(status, headers), requestTime: at(requestTime),
            responseTime: at(responseTime))
    }
}
