import Foundation

/// How telemetry writes URLs and durations: no user info in a URL, milliseconds with three decimals.
enum LogText {
    /// `url` without its user and password.
    static func url(_ url: URL) -> String {
        guard url.user != nil || url.password != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        else { return url.absoluteString }
        components.user = nil
        components.password = nil
        return components.url?.absoluteString ?? url.absoluteString
    }

    /// `duration` in milliseconds.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1e3 + Double(attoseconds) / 1e15).rounded(toPlaces: 3)
    }
}

extension Double {
    fileprivate func rounded(toPlaces places: Int) -> Double {
        let scale = Foundation.pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}
