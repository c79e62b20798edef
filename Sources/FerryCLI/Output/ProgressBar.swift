import Ferry

/// The download progress line: `  42% [██████▌         ] 4.20 MB / 10.0 MB  1.50 MB/s  ETA 4.0 s`.
///
/// On a terminal ``ProgressDisplay`` redraws it in place (`\r`, then erase to the end of the line); elsewhere only
/// ``summary(_:file:elapsed:)`` is printed, once.
struct ProgressBar {
    /// The bar's width in cells.
    var width = 24

    /// The line for one snapshot, without `\r` or newline.
    func line(_ progress: TransferProgress) -> String {
        var parts: [String] = []
        if let fraction = progress.fractionCompleted, let total = progress.totalBytes {
            let percent = Int((fraction * 100).rounded(.down))
            parts.append(String(repeating: " ", count: max(0, 3 - String(percent).count)) + "\(percent)%")
            parts.append("[" + cells(fraction) + "]")
            parts.append("\(Units.bytes(progress.completedBytes)) / \(Units.bytes(total))")
        } else {
            parts.append(Units.bytes(progress.completedBytes))
        }
        if let rate = progress.bytesPerSecond, rate > 0 { parts.append(Units.rate(rate)) }
        if progress.isFinished {
            parts.append("done")
        } else if let remaining = progress.estimatedTimeRemaining {
            parts.append("ETA " + Units.duration(remaining))
        }
        return parts.joined(separator: "  ")
    }

    /// `█` for whole cells, one partial cell from the eighths, spaces for the rest.
    func cells(_ fraction: Double) -> String {
        let eighths = Int((min(max(fraction, 0), 1) * Double(width * 8)).rounded(.down))
        let partials: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        var bar = String(repeating: "█", count: eighths / 8)
        if eighths % 8 > 0 { bar.append(partials[eighths % 8 - 1]) }
        return bar + String(repeating: " ", count: width - bar.count)
    }

    /// The one line printed when standard error is not a terminal, or under the bar when it is:
    /// `saved out.bin: 10.0 MB in 1.20 s (8.33 MB/s)`.
    static func summary(bytes: Int64, file: String, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? " (\(Units.rate(Double(bytes) / seconds)))" : ""
        return "saved \(file): \(Units.bytes(bytes)) in \(Units.duration(elapsed))\(rate)"
    }
}
