import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ferry` run as a user at a keyboard runs `ferry ws`: its standard input held open and typed into while it runs,
/// its output watched as it comes, Ctrl-C sent when wanted. Every wait has a deadline, so a test that does not see
/// what it waits for fails rather than hangs.
final class FerryConversation: Sendable {
    private let child: SpawnedProcess
    private let input: Int32
    private let output: Watched
    private let errors: Watched
    private let inputEnded: Watched

    private init(child: SpawnedProcess, input: Int32, output: Int32, errors: Int32) {
        self.child = child
        self.input = input
        self.output = Watched(reading: output)
        self.errors = Watched(reading: errors)
        self.inputEnded = Watched(reading: nil)
    }

    /// Starts `ferry` with these arguments.
    static func start(_ arguments: [String]) throws -> FerryConversation {
        let input = try SpawnedProcess.pipe()
        let output = try SpawnedProcess.pipe()
        let errors = try SpawnedProcess.pipe()
        let child = try SpawnedProcess.spawn(
            FerryBinary.executable.path, arguments, environment: FerryBinary.childEnvironment(), stdin: input.read,
            stdout: output.write, stderr: errors.write)
        close(input.read)
        close(output.write)
        close(errors.write)
        return FerryConversation(child: child, input: input.write, output: output.read, errors: errors.read)
    }

    /// Types text on `ferry`'s standard input.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
    }

    /// Ends `ferry`'s standard input (Ctrl-D), once.
    func endInput() {
        if inputEnded.markOnce() { close(input) }
    }

    /// Sends `ferry` SIGINT, as Ctrl-C does.
    func interrupt() {
        kill(child.pid, SIGINT)
    }

    /// Waits until standard output holds `text`. - Returns: whether it came in time.
    func waitForOutput(_ text: String, seconds: Double = 20) async -> Bool {
        await output.wait(for: text, seconds: seconds)
    }

    /// Waits until standard error holds `text`. - Returns: whether it came in time.
    func waitForErrors(_ text: String, seconds: Double = 20) async -> Bool {
        await errors.wait(for: text, seconds: seconds)
    }

    /// Ends standard input (unless not `endingInput`: then only after `ferry` exits), waits for `ferry` to exit
    /// (sending it SIGTERM first when `terminating`) and returns what it printed.
    func finish(endingInput: Bool = true, terminating: Bool = false) async throws -> FerryBinary.Run {
        if endingInput { endInput() }
        if terminating { child.terminate() }
        let child = child
        // A ferry that never ends fails the test (killed: status 137) instead of hanging the run.
        let pid = child.pid
        let watchdog = Task {
            try await Task.sleep(for: Duration.seconds(60).scaled)
            kill(pid, SIGKILL)
        }
        defer { watchdog.cancel() }
        let exit = try await FerryBinary.onThread { child.wait() }
        endInput()
        let out = await output.all()
        let err = await errors.all()
        return FerryBinary.Run(status: exit.exited ? exit.status : 128 + exit.status, stdout: out, stderr: err)
    }

    /// A descriptor read to its end on a thread of its own, its bytes so far behind a condition.
    private final class Watched: @unchecked Sendable {
        // Every stored property is read and written with `condition` locked.
        private let condition = NSCondition()
        private var data = Data()
        private var ended = false
        private var marked = false

        init(reading descriptor: Int32?) {
            guard let descriptor else { return }
            Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    condition.lock()
                    if count > 0 { data.append(contentsOf: buffer[0..<count]) } else { ended = true }
                    condition.broadcast()
                    condition.unlock()
                    if count <= 0 { break }
                }
                close(descriptor)
            }.start()
        }

        /// `true` the first time only.
        func markOnce() -> Bool {
            condition.lock()
            defer { condition.unlock() }
            if marked { return false }
            marked = true
            return true
        }

        func wait(for text: String, seconds: Double) async -> Bool {
            let needle = Data(text.utf8)
            return
                (try? await FerryBinary.onThread { [self] in
                    let deadline = Date(timeIntervalSinceNow: seconds)
                    condition.lock()
                    defer { condition.unlock() }
                    while data.range(of: needle) == nil {
                        if ended || !condition.wait(until: deadline) { return data.range(of: needle) != nil }
                    }
                    return true
                }) ?? false
        }

        func all() async -> Data {
            (try? await FerryBinary.onThread { [self] in
                condition.lock()
                defer { condition.unlock() }
                while !ended { condition.wait() }
                return data
            }) ?? Data()
        }
    }
}
