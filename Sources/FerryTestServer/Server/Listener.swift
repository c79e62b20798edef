#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The accept loop: one thread that hands every new connection to a thread of its own.
struct Listener {
    let core: ServerCore

    /// Accepts connections until the server shuts down.
    func run() {
        while true {
            switch core.waitForInput(core.listenFD) {
            case .woken:
                return
            case .timedOut:
                continue
            case .readable:
                break
            }
            let fd = accept(core.listenFD, nil, nil)
            guard fd >= 0 else {
                // EAGAIN (the peer gave up before we got to it), EINTR, ECONNABORTED, or running out of
                // descriptors: back off briefly rather than spin, and let shutdown interrupt the pause.
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    guard core.pause(for: .milliseconds(10)) else { return }
                }
                continue
            }
            POSIX.prepare(fd)
            // BSD sockets inherit O_NONBLOCK from the listener; connections block (their waits use poll).
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            POSIX.disableDelay(fd)
            core.admit(fd)
        }
    }
}
