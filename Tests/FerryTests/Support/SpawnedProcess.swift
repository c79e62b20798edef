import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, for the tests that run programs (`ferry`, a shell, this test binary
/// in a child process).
///
/// Not Foundation's `Process`: on Linux its `run()` looks for the highest open descriptor by copying each directory
/// entry's `d_name` of `/proc/self/fd` as a fixed 256-byte array, past the end of `readdir`'s buffer. AddressSanitizer
/// reported it first; once the CLI suite ran `ferry` seventy times, the read crossed into an unmapped page and the
/// whole test process died of SIGSEGV (RELIABILITY.md, "Sanitizers").
struct SpawnedProcess: Sendable {
    /// How a child ended.
    struct Exit: Sendable {
        /// Whether it exited (with ``status``) rather than being killed by a signal (``status`` is then the signal).
        var exited: Bool
        /// The exit status, or the signal that ended it.
        var status: Int32
    }

    /// The child's process ID.
    let pid: pid_t

    /// Starts `path` with `arguments` and exactly `environment`; `stdin`, `stdout` and `stderr` become the child's
    /// descriptors 0, 1 and 2. Every other descriptor of this process must be close-on-exec (see ``pipe()``).
    static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
        stdin: Int32, stdout: Int32, stderr: Int32
    ) throws -> SpawnedProcess {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        if let directory {
            let addChdir = symbol(
                "posix_spawn_file_actions_addchdir_np",
                as: (@convention(c) (UnsafeMutableRawPointer, UnsafePointer<CChar>) -> Int32).self)
            let result = withUnsafeMutablePointer(to: &actions) { addChdir(UnsafeMutableRawPointer($0), directory) }
            guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        return SpawnedProcess(pid: pid)
    }

    /// Waits for the child to end. Blocks: call it off Swift's cooperative pool.
    func wait() -> Exit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? Exit(exited: true, status: (status >> 8) & 0xff) : Exit(exited: false, status: signal)
    }

    /// Sends the child SIGTERM.
    func terminate() {
        kill(pid, SIGTERM)
    }

    /// A pipe whose two ends are close-on-exec from the start, so no other child inherits them (which would keep
    /// a reader waiting for the end of its output until that child exits).
    static func pipe() throws -> (read: Int32, write: Int32) {
        let makePipe = symbol("pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
        var descriptors: [Int32] = [-1, -1]
        guard makePipe(&descriptors, O_CLOEXEC) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE)
        }
        return (descriptors[0], descriptors[1])
    }

    /// `/dev/null`, close-on-exec, for a child's standard input.
    static func nullDevice() -> Int32 { open("/dev/null", O_RDWR | O_CLOEXEC) }

    /// This process's environment with `changes` on top (a `nil` value removes the variable).
    static func environment(_ changes: [String: String?] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in changes { environment[name] = value }
        return environment
    }

    /// Reads `descriptor` to its end on another thread and closes it; the returned function waits for the bytes.
    static func collect(_ descriptor: Int32) -> @Sendable () -> Data {
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let box = Collected()
        let done = DispatchSemaphore(value: 0)
        Thread {
            box.data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
        return {
            done.wait()
            return box.data
        }
    }

    private final class Collected: @unchecked Sendable {
        var data = Data()  // written before the semaphore is signalled, read after it is waited for
    }

    /// A C library function looked up at run time (Glibc's module map hides some behind `_GNU_SOURCE`).
    static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            fatalError("\(name) is not in the C library")
        }
        return unsafeBitCast(address, to: type)
    }
}
