import Foundation

/// What `/proc/self/fd` says about this process's open descriptors (Linux).
enum Descriptors {
    /// The target of every open descriptor, such as `socket:[123456]` or `pipe:[7890]`, keyed by number.
    static func targets() -> [Int32: String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var targets: [Int32: String] = [:]
        for entry in entries {
            guard let fd = Int32(entry), let target = target(of: fd) else { continue }
            targets[fd] = target
        }
        return targets
    }

    /// The target of one descriptor, or `nil` if it is not open.
    static func target(of fd: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
    }
}
