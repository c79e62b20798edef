/// Sizes, rates and durations for people: `1.5 MB`, `820 kB/s`, `3.2 s`.
enum Units {
    /// A byte count in decimal units: `512 B`, `12.3 kB`, `1.50 MB`, `2.00 GB`.
    static func bytes(_ count: Int64) -> String {
        let value = Double(count)
        switch count {
        case ..<1000: return "\(count) B"
        case ..<1_000_000: return format(value / 1e3) + " kB"
        case ..<1_000_000_000: return format(value / 1e6) + " MB"
        default: return format(value / 1e9) + " GB"
        }
    }

    /// A rate: `bytes(n)/s`.
    static func rate(_ bytesPerSecond: Double) -> String {
        bytes(Int64(bytesPerSecond.rounded())) + "/s"
    }

    /// A duration: `850 µs`, `12.3 ms`, `4.56 s`, `2m 05s`, `1h 02m`.
    static func duration(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        switch seconds {
        case ..<0.001: return "\(Int((seconds * 1e6).rounded())) µs"
        case ..<1: return format(seconds * 1e3) + " ms"
        case ..<60: return format(seconds) + " s"
        case ..<3600:
            let whole = Int(seconds.rounded())
            return "\(whole / 60)m " + twoDigits(whole % 60) + "s"
        default:
            let minutes = Int((seconds / 60).rounded())
            return "\(minutes / 60)h " + twoDigits(minutes % 60) + "m"
        }
    }

    /// Three significant digits: `1.23`, `12.3`, `123`.
    private static func format(_ value: Double) -> String {
        let decimals = value < 10 ? 2 : value < 100 ? 1 : 0
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if decimals == 0 { return String(Int(rounded)) }
        let whole = Int(rounded)
        let fraction = Int(((rounded - Double(whole)) * scale).rounded())
        let digits = String(fraction)
        return "\(whole)." + String(repeating: "0", count: max(0, decimals - digits.count)) + digits
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
