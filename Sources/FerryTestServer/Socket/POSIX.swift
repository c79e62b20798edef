#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call, with the `errno` it left behind.
struct SystemCallError: Error, Sendable, Hashable {
    /// The name of the call that failed, such as `"bind"`.
    let call: String
    /// The value of `errno` right after the call.
    let code: Int32

    init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }
}

/// Thin, platform-neutral wrappers over the socket calls the server needs.
///
/// Descriptors stay plain `Int32` values: whoever owns one closes it exactly once, under the server's lock.
enum POSIX {
    /// `SOCK_STREAM` as the `type` argument of `socket(2)`.
    static var streamType: Int32 {
        #if canImport(Glibc) || canImport(Musl)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// Flags for `send(2)` that keep a closed peer from raising `SIGPIPE`.
    static var sendFlags: Int32 {
        #if canImport(Glibc) || canImport(Musl)
        Int32(MSG_NOSIGNAL)
        #else
        0
        #endif
    }

    /// Marks a descriptor close-on-exec and, on Darwin, immune to `SIGPIPE`.
    static func prepare(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        setOption(fd, level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1)
        #endif
    }

    /// Sets an integer socket option, ignoring failure (every option set here is an optimisation).
    static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Disables Nagle's algorithm so that every chunk the server writes leaves at once.
    static func disableDelay(_ fd: Int32) {
        setOption(fd, level: Int32(IPPROTO_TCP), name: Int32(TCP_NODELAY), value: 1)
    }

    /// Arms `SO_LINGER {1, 0}` so that the next `close` sends a TCP RST instead of a FIN.
    static func armReset(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Shuts down both directions, which wakes any thread blocked in `send` or `recv` on `fd`.
    static func shutdownBoth(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Shuts down the sending direction: the peer reads a FIN after everything already sent.
    static func shutdownWrite(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes a descriptor, retrying nothing (a failed `close` still releases the descriptor on Linux).
    static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    /// Sends every byte of `bytes`, retrying after interruptions and short writes.
    /// - Throws: `SystemCallError` when the peer is gone or the socket was shut down.
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let sent = send(fd, next, remaining, sendFlags)
            if sent < 0 {
                if errno == EINTR { continue }
                throw SystemCallError("send")
            }
            next += sent
            remaining -= sent
        }
    }

    /// Receives at most `capacity` bytes into `buffer`.
    /// - Returns: the number of bytes read, `0` at end of stream.
    /// - Throws: `SystemCallError` on a reset or another failure.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw SystemCallError("recv")
        }
    }

    /// What `waitForInput` found.
    enum Readiness {
        /// `fd` has bytes (or an end of stream, or an error) to read.
        case readable
        /// The wake descriptor fired: the server is shutting down.
        case woken
        /// The timeout passed first.
        case timedOut
    }

    /// Waits until `fd` can be read or `wakeFD` fires, whichever comes first.
    /// - Parameters:
    ///   - fd: the descriptor to watch, or `nil` to watch only `wakeFD`.
    ///   - wakeFD: the read end of the server's wake pipe.
    ///   - timeout: how long to wait at most; `nil` waits forever.
    static func waitForInput(_ fd: Int32?, wakeFD: Int32, timeout: Duration?) -> Readiness {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now.advanced(by: $0) }
        var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        if let fd { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let left = clock.now.duration(to: deadline)
                if left <= .zero { return .timedOut }
                milliseconds = Int32(clamping: left.roundedUpMilliseconds)
            }
            for index in fds.indices { fds[index].revents = 0 }
            let ready = poll(&fds, nfds_t(fds.count), milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return .woken
            }
            if fds[0].revents != 0 { return .woken }
            if fds.count > 1, fds[1].revents != 0 { return .readable }
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded up so that a wait never ends early.
    var roundedUpMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let millis = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return attoseconds % 1_000_000_000_000_000 > 0 ? millis + 1 : millis
    }
}

extension POSIX {
    /// How many sent bytes the peer has not acknowledged yet, where the platform can tell (Linux: `TIOCOUTQ`).
    static func unacknowledgedByteCount(_ fd: Int32) -> Int? {
        #if os(Linux)
        var count: Int32 = 0
        guard ioctl(fd, UInt(TIOCOUTQ), &count) == 0 else { return nil }
        return Int(count)
        #else
        return nil
        #endif
    }
}
