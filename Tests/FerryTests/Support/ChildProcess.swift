import Foundation

/// Runs some of this test binary's own tests in a child process, for behaviour that may crash the process (a
/// FoundationNetworking trap) and so must never run in the test process itself.
struct ChildProcess {
    /// How the child ended.
    struct Outcome: Sendable {
        /// Whether it exited (with ``status``) rather than being killed by a signal.
        var exited: Bool
        /// The exit status, or the signal that ended it.
        var status: Int32
        /// Its standard output and error, interleaved.
        var output: String

        /// Whether it exited with status 0.
        var succeeded: Bool { exited && status == 0 }
    }

    /// The environment variable that enables ``crashProbe`` suites: set only in the child.
    static let probeVariable = "FERRY_CRASH_PROBE"

    /// Whether this process is a child started to run crash probes.
    static var isProbe: Bool { ProcessInfo.processInfo.environment[probeVariable] != nil }

    /// Runs the Swift Testing tests matching `filter` in a new process of this test binary, with
    /// ``probeVariable`` set and `extra` added to its environment (for behaviour the process's environment decides,
    /// such as proxies), killing it after `timeout`.
    static func runTests(
        matching filter: String, environment extra: [String: String] = [:], timeout: Duration = .seconds(60)
    ) async throws -> Outcome {
        let log = FileManager.default.temporaryDirectory.appending(path: "ferry-probe-\(UUID().uuidString).log")
        let descriptor = open(log.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { try? FileManager.default.removeItem(at: log) }
        let null = SpawnedProcess.nullDevice()
        let child: SpawnedProcess
        do {
            child = try SpawnedProcess.spawn(
                URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path,
                ["--testing-library", "swift-testing", "--filter", filter],
                // No symbolicated backtrace of an expected crash: the runtime's backtracer takes a core for seconds
                // to symbolicate this binary, beside the live tests that are still running.
                environment: SpawnedProcess.environment(
                    [probeVariable: "1", "SWIFT_BACKTRACE": "enable=no"].merging(extra) { _, new in new }),
                stdin: null, stdout: descriptor, stderr: descriptor)
        } catch {
            close(descriptor)
            close(null)
            throw error
        }
        close(descriptor)
        close(null)
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            child.terminate()
        }
        let exit = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: child.wait()) }.start()
        }
        watchdog.cancel()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Outcome(exited: exit.exited, status: exit.status, output: output)
    }
}
