import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `ferry` executable, as a user would, and collects what it printed.
enum FerryBinary {
    /// What one run printed, and how it ended.
    struct Run: Sendable {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var out: String { String(decoding: stdout, as: UTF8.self) }
        var err: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// `ferry` beside the test bundle: `swift build --build-tests` builds both into the same directory.
    static var executable: URL {
        let bundle = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return bundle.deletingLastPathComponent().appendingPathComponent("ferry")
    }

    /// Runs `ferry` with pipes for its three streams (none is a terminal).
    /// - Parameters:
    ///   - arguments: The arguments.
    ///   - stdin: What standard input holds; empty by default.
    ///   - directory: The working directory.
    ///   - environment: Variables set on top of this process's environment.
    ///   - stdinStaysOpen: Whether standard input stays open (after `stdin`) until `ferry` exits, rather than
    ///     ending once `stdin` is written: for `ferry ws`, which closes its socket at the end of its input.
    static func run(
        _ arguments: [String], stdin: Data = Data(), in directory: URL? = nil, environment: [String: String] = [:],
        stdinStaysOpen: Bool = false
    ) async throws -> Run {
        try await runProgram(
            executable.path, arguments, stdin: stdin, directory: directory,
            environment: childEnvironment(environment.mapValues { Optional($0) }), stdinStaysOpen: stdinStaysOpen)
    }

    /// Runs `ferry` with standard error on a pseudo-terminal (standard output stays a pipe), as in
    /// `ferry -o file URL` typed in a terminal. `stderr` holds what the terminal received. The environment is this
    /// process's with a colour terminal's `TERM` and without `NO_COLOR`, as in an interactive shell.
    static func runWithTerminalStderr(_ arguments: [String], in directory: URL? = nil) async throws -> Run {
        try await onTerminal(
            arguments, directory: directory, terminalIsStdin: false,
            environment: childEnvironment(["TERM": "xterm-256color", "NO_COLOR": nil])
        ) { _, _ in nil }
    }

    /// Runs `ferry` with standard input and standard error on a pseudo-terminal (standard output stays a pipe), and
    /// types `reply` once the terminal shows `prompt`: a user answering a question. `stderr` holds what the terminal
    /// showed.
    static func runAnsweringOnTerminal(_ arguments: [String], prompt: String, reply: String) async throws -> Run {
        try await onTerminal(
            arguments, directory: nil, terminalIsStdin: true, environment: childEnvironment()
        ) { shown, replied in
            !replied && String(decoding: shown, as: UTF8.self).contains(prompt) ? reply + "\n" : nil
        }
    }

    /// Where `ferry`'s temporary files go: a directory of their own, so that a download's `.partial` file in a
    /// child never shows up among the test process's own (the download tests check that they leave none behind).
    static let temporaryDirectory: URL = {
        let directory = FileManager.default.temporaryDirectory.appending(path: "ferry-binary-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }()

    /// This process's environment for a `ferry` child, with `changes` on top and its own `TMPDIR`.
    static func childEnvironment(_ changes: [String: String?] = [:]) -> [String: String] {
        SpawnedProcess.environment(changes.merging(["TMPDIR": temporaryDirectory.path]) { given, _ in given })
    }

    /// Runs another program (a shell, to check a completion script) with pipes for its output, as
    /// ``run(_:stdin:in:environment:)`` runs `ferry`.
    static func runTool(_ path: String, _ arguments: [String]) async throws -> Run {
        try await runProgram(path, arguments, stdin: Data(), directory: nil, environment: SpawnedProcess.environment())
    }

    /// Runs a program with pipes for its three streams.
    private static func runProgram(
        _ path: String, _ arguments: [String], stdin: Data, directory: URL?, environment: [String: String],
        stdinStaysOpen: Bool = false
    ) async throws -> Run {
        try await onThread {
            let input = try SpawnedProcess.pipe()
            let output = try SpawnedProcess.pipe()
            let errors = try SpawnedProcess.pipe()
            let child: SpawnedProcess
            do {
                child = try SpawnedProcess.spawn(
                    path, arguments, environment: environment, directory: directory?.path, stdin: input.read,
                    stdout: output.write, stderr: errors.write)
            } catch {
                for descriptor in [input.read, input.write, output.read, output.write, errors.read, errors.write] {
                    close(descriptor)
                }
                throw error
            }
            close(input.read)
            close(output.write)
            close(errors.write)
            let collected = SpawnedProcess.collect(output.read)
            let collectedErrors = SpawnedProcess.collect(errors.read)
            let writer = FileHandle(fileDescriptor: input.write, closeOnDealloc: true)
            try? writer.write(contentsOf: stdin)
            if !stdinStaysOpen { try? writer.close() }
            let exit = child.wait()
            if stdinStaysOpen { try? writer.close() }
            return Run(status: exit.status, stdout: collected(), stderr: collectedErrors())
        }
    }

    /// Runs `ferry` with standard error (and standard input when `terminalIsStdin`) on a pseudo-terminal, reading
    /// what the terminal shows; `answer` may return text to type, given what was shown and whether it already typed.
    private static func onTerminal(
        _ arguments: [String], directory: URL?, terminalIsStdin: Bool, environment: [String: String],
        answer: @escaping @Sendable (Data, Bool) -> String?
    ) async throws -> Run {
        try await onThread {
            let master = PseudoTerminal.open(O_RDWR | O_NOCTTY | O_CLOEXEC)
            guard master >= 0, PseudoTerminal.grant(master) == 0, PseudoTerminal.unlock(master) == 0,
                let name = PseudoTerminal.name(master)
            else {
                throw POSIXError(.ENODEV)
            }
            defer { close(master) }
            let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
            guard slave >= 0 else { throw POSIXError(.ENODEV) }
            let null = SpawnedProcess.nullDevice()
            let output = try SpawnedProcess.pipe()
            let child = try SpawnedProcess.spawn(
                executable.path, arguments, environment: environment, directory: directory?.path,
                stdin: terminalIsStdin ? slave : null, stdout: output.write, stderr: slave)
            close(slave)
            close(null)
            close(output.write)
            let collected = SpawnedProcess.collect(output.read)
            var terminal = Data()
            var replied = false
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }  // EIO once the child has exited and the last slave descriptor is closed
                terminal.append(contentsOf: buffer[0..<count])
                if let typed = answer(terminal, replied) {
                    let bytes = Array(typed.utf8)
                    _ = write(master, bytes, bytes.count)
                    replied = true
                }
            }
            let exit = child.wait()
            return Run(status: exit.status, stdout: collected(), stderr: terminal)
        }
    }

    /// Blocking process work runs on a thread of its own, never on Swift's cooperative pool.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}

/// The C library's pseudo-terminal calls, looked up at run time: Glibc's module map hides them behind
/// `_XOPEN_SOURCE`.
private enum PseudoTerminal {
    private static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            fatalError("\(name) is not in the C library")
        }
        return unsafeBitCast(address, to: type)
    }

    static func open(_ flags: Int32) -> Int32 {
        symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)(flags)
    }

    static func grant(_ descriptor: Int32) -> Int32 {
        symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self)(descriptor)
    }

    static func unlock(_ descriptor: Int32) -> Int32 {
        symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self)(descriptor)
    }

    static func name(_ descriptor: Int32) -> UnsafeMutablePointer<CChar>? {
        symbol("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)(descriptor)
    }
}
