import Foundation

/// This process's resident set, from /proc/self/status (Linux): current (`VmRSS`) and peak (`VmHWM`), in KiB.
enum ProcessMemory {
    static func kibibytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "")
        }
        return nil
    }

    static var residentKiB: Int? { kibibytes("VmRSS") }
    static var peakResidentKiB: Int? { kibibytes("VmHWM") }
}
