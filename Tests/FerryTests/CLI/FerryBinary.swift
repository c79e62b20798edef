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
    static func run(
        _ arguments: [String], stdin: Data = Data(), in directory: URL? = nil, environment: [String: String] = [:]
    ) async throws -> Run {
        try await onThread {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            if let directory { process.currentDirectoryURL = directory }
            let input = Pipe()
            let output = Pipe()
            let error = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = error
            try process.run()
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
            let collected = collect(output.fileHandleForReading)
            let errors = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(status: process.terminationStatus, stdout: collected(), stderr: errors)
        }
    }

    /// Runs `ferry` with standard error on a pseudo-terminal (standard output stays a pipe), as in
    /// `ferry -o file URL` typed in a terminal. `stderr` holds what the terminal received. The environment is this
    /// process's with a colour terminal's `TERM` and without `NO_COLOR`, as in an interactive shell.
    static func runWithTerminalStderr(_ arguments: [String], in directory: URL? = nil) async throws -> Run {
        try await onThread {
            var environment = ProcessInfo.processInfo.environment
            environment["TERM"] = "xterm-256color"
            environment["NO_COLOR"] = nil
            let master = PseudoTerminal.open(O_RDWR | O_NOCTTY)
            guard master >= 0, PseudoTerminal.grant(master) == 0, PseudoTerminal.unlock(master) == 0,
                let name = PseudoTerminal.name(master)
            else {
                throw POSIXError(.ENODEV)
            }
            defer { close(master) }
            let slave = open(name, O_RDWR | O_NOCTTY)
            guard slave >= 0 else { throw POSIXError(.ENODEV) }
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = environment
            if let directory { process.currentDirectoryURL = directory }
            let output = Pipe()
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
            try process.run()
            close(slave)
            let collected = collect(output.fileHandleForReading)
            var terminal = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }  // EIO once the child has exited and the last slave descriptor is closed
                terminal.append(contentsOf: buffer[0..<count])
            }
            process.waitUntilExit()
            return Run(status: process.terminationStatus, stdout: collected(), stderr: terminal)
        }
    }

    /// Runs `ferry` with standard input and standard error on a pseudo-terminal (standard output stays a pipe), and
    /// types `reply` once the terminal shows `prompt`: a user answering a question. `stderr` holds what the terminal
    /// showed.
    static func runAnsweringOnTerminal(_ arguments: [String], prompt: String, reply: String) async throws -> Run {
        try await onThread {
            let master = PseudoTerminal.open(O_RDWR | O_NOCTTY)
            guard master >= 0, PseudoTerminal.grant(master) == 0, PseudoTerminal.unlock(master) == 0,
                let name = PseudoTerminal.name(master)
            else {
                throw POSIXError(.ENODEV)
            }
            defer { close(master) }
            let slave = open(name, O_RDWR | O_NOCTTY)
            guard slave >= 0 else { throw POSIXError(.ENODEV) }
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let output = Pipe()
            let terminalHandle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
            process.standardInput = terminalHandle
            process.standardOutput = output
            process.standardError = terminalHandle
            try process.run()
            close(slave)
            let collected = collect(output.fileHandleForReading)
            var terminal = Data()
            var replied = false
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }  // EIO once the child has exited
                terminal.append(contentsOf: buffer[0..<count])
                if !replied, String(decoding: terminal, as: UTF8.self).contains(prompt) {
                    let bytes = Array((reply + "\n").utf8)
                    _ = write(master, bytes, bytes.count)
                    replied = true
                }
            }
            process.waitUntilExit()
            return Run(status: process.terminationStatus, stdout: collected(), stderr: terminal)
        }
    }

    /// Runs another program (a shell, to check a completion script) with pipes for its output, as ``run(_:stdin:in:environment:)``
    /// runs `ferry`.
    static func runTool(_ path: String, _ arguments: [String]) async throws -> Run {
        try await onThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            let output = Pipe()
            let error = Pipe()
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = error
            try process.run()
            let collected = collect(output.fileHandleForReading)
            let errors = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(status: process.terminationStatus, stdout: collected(), stderr: errors)
        }
    }

    /// Reads a handle to its end on another thread; the returned function waits for the bytes.
    private static func collect(_ handle: FileHandle) -> @Sendable () -> Data {
        let box = DataBox()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            box.data = handle.readDataToEndOfFile()
            done.signal()
        }
        return {
            done.wait()
            return box.data
        }
    }

    private final class DataBox: @unchecked Sendable {
        var data = Data()  // written before the semaphore is signalled, read after it is waited for
    }

    /// Blocking process work runs on a thread of its own, never on Swift's cooperative pool.
    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
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
