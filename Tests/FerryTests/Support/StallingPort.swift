import Ferry
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback TCP port where a connection stalls, for as long as this value is held: it is never refused, and never
/// answered.
///
/// The socket listens and is never accepted from: a server (or a proxy) too busy to accept, or a host behind a
/// firewall that drops packets. ``Stage/connecting`` stalls the connection attempt itself: the socket listens with a
/// backlog of 0 and one connection of its own fills the accept queue, so the kernel drops every further SYN and a
/// client's connect stays unanswered (it retransmits and waits). ``Stage/answering`` lets the kernel complete the
/// connection into the queue, where what the client sends is never read.
final class StallingPort: LoopbackPort {
    /// Where a connection stalls.
    enum Stage {
        /// The connection attempt is never answered.
        case connecting
        /// The connection opens; what is sent on it is never answered.
        case answering
    }

    /// The port on 127.0.0.1.
    let port: Int
    private let listener: Int32
    private let filler: Int32?

    init(at stage: Stage) throws {
        let listener = try Self.socket()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let backlog: Int32 = stage == .connecting ? 0 : 16
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && getsockname(listener, socketAddress, &length) == 0
                    && listen(listener, backlog) == 0
            }
        }
        guard listening else { throw Self.closing(listener) }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        guard stage == .connecting else {
            filler = nil
            return
        }
        // One connection of the test's own fills the queue (a backlog of 0 holds one); it completes at once.
        let filler: Int32
        do {
            filler = try Self.socket()
        } catch {
            close(listener)
            throw error
        }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) == 0 }
        }
        guard connected else {
            close(listener)
            throw Self.closing(filler)
        }
        self.filler = filler
    }

    deinit {
        if let filler { close(filler) }
        close(listener)
    }

    private static func socket() throws -> Int32 {
        #if canImport(Glibc)
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return descriptor
    }

    /// The current `errno` as an error, after closing `descriptor`.
    private static func closing(_ descriptor: Int32) -> POSIXError {
        let code = POSIXErrorCode(rawValue: errno) ?? .EIO
        close(descriptor)
        return POSIXError(code)
    }
}

extension Session {
    /// A session whose `kind` of timeout is 300 ms and the other long, for a test that waits for that one to run out.
    static func timingOut(_ kind: FerryError.TimeoutKind, transport: (any Transport)? = nil) -> Session {
        Session(
            configuration: Session.Configuration(
                idleTimeout: kind == .idle ? .milliseconds(300) : Duration.seconds(30).scaled,
                totalTimeout: kind == .total ? .milliseconds(300) : nil, transport: transport))
    }
}
