/// Durations and sizes in the units a person reads: `150 ms`, `2.5 s`, `1 min 30 s`; `512 bytes`, `10 MiB`.
///
/// Fixed English, no locale: the messages of ``FerryError`` are pinned by tests and read the same everywhere.
enum HumanUnits {
    /// A duration in the largest unit that keeps it readable: nanoseconds, microseconds and milliseconds below a
    /// second (one decimal at most), seconds with up to three decimals below a minute, then hours, minutes and
    /// seconds with the zero parts left out (`1 h 5 s`).
    static func duration(_ duration: Duration) -> String {
        if duration < .zero { return "-" + self.duration(.zero - duration) }
        let (seconds, attoseconds) = duration.components
        if seconds == 0 {
            let nanoseconds = attoseconds / 1_000_000_000
            if nanoseconds < 1_000 { return attoseconds == 0 ? "0 s" : "\(nanoseconds) ns" }
            let tenthsOfMicroseconds = rounded(attoseconds, toUnit: 100_000_000_000)
            if tenthsOfMicroseconds < 10_000 { return decimal(tenthsOfMicroseconds, places: 1) + " µs" }
            let tenthsOfMilliseconds = rounded(attoseconds, toUnit: 100_000_000_000_000)
            if tenthsOfMilliseconds < 10_000 { return decimal(tenthsOfMilliseconds, places: 1) + " ms" }
        }
        // From a second on, to the millisecond (which may round 999.96 ms up to a second).
        let (wholeMilliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        guard !overflow else { return "\(seconds / 3_600) h" }
        let milliseconds = wholeMilliseconds + rounded(attoseconds, toUnit: 1_000_000_000_000_000)
        if milliseconds < 60_000 { return decimal(milliseconds, places: 3) + " s" }
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let rest = milliseconds % 60_000
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) h") }
        if minutes > 0 { parts.append("\(minutes) min") }
        if rest > 0 { parts.append(decimal(rest, places: 3) + " s") }
        return parts.joined(separator: " ")
    }

    /// A byte count: below 1 KiB in bytes (`1 byte`, `512 bytes`), above in binary units with one decimal at most
    /// (`1.5 KiB`, `10 MiB`, `1 GiB`), followed by the exact count when the rounded figure is not exact
    /// (`976.6 KiB (1000000 bytes)`).
    static func bytes(_ count: Int64) -> String {
        if count < 0 { return "\(count) bytes" }
        if count < 1024 { return count == 1 ? "1 byte" : "\(count) bytes" }
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var index = 0
        var unit: Int64 = 1024
        var tenths = rounded(count, tenthsOf: unit)
        while tenths >= 10_240, index < units.count - 1 {
            index += 1
            unit *= 1024
            tenths = rounded(count, tenthsOf: unit)
        }
        let text = decimal(tenths, places: 1) + " " + units[index]
        let exact = Int128(tenths) * Int128(unit) == Int128(count) * 10
        return exact ? text : "\(text) (\(count) bytes)"
    }

    /// `count` in tenths of `unit`, rounded half up.
    private static func rounded(_ count: Int64, tenthsOf unit: Int64) -> Int64 {
        Int64((Int128(count) * 10 + Int128(unit) / 2) / Int128(unit))
    }

    /// `value` divided by `unit`, rounded half up.
    private static func rounded(_ value: Int64, toUnit unit: Int64) -> Int64 {
        (value + unit / 2) / unit
    }

    /// A fixed-point number: `value` in units of 10^-`places`, without trailing zeros (`2500, 3` → `"2.5"`).
    private static func decimal(_ value: Int64, places: Int) -> String {
        var divisor: Int64 = 1
        for _ in 0..<places { divisor *= 10 }
        let whole = value / divisor
        var fraction = String(value % divisor)
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
    }
}
