import Foundation

/// What the process holds at one moment: resident memory, open file descriptors, threads (from /proc).
struct ProcessSnapshot: Sendable {
    let residentMiB: Double
    let openFiles: Int
    let threads: Int

    init() {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Double($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
        residentMiB = (rss ?? 0) / 1024
        openFiles = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
        threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
    }

    var description: String {
        String(format: "RSS %.1f MiB, %d open fds, %d threads", residentMiB, openFiles, threads)
    }
}
