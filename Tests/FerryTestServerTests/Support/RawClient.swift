import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal blocking TCP client on raw POSIX sockets, to see exactly what the server puts on the wire: bytes,
/// FIN, RST, or silence.
final class RawClient {
    /// How a read ended.
    enum Ending: Error, Equatable {
        /// The server closed cleanly (FIN): `recv` returned 0.
        case endOfStream
        /// The server reset the connection: `recv` failed with `ECONNRESET`.
        case reset
        /// Nothing more arrived before the timeout.
        case timedOut
        /// `recv` failed with another `errno`.
        case failed(Int32)
    }

    struct ConnectError: Error {
        let errno: Int32
    }

    let fd: Int32
    /// Bytes received but not consumed by `readResponse` yet.
    private var pending = Data()

    /// Connects to `127.0.0.1:port` (or `::1` when `ipv6`).
    init(port: Int, ipv6: Bool = false) throws {
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, streamSocketType, 0)
        guard fd >= 0 else { throw ConnectError(errno: errno) }
        let result: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            address.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw ConnectError(errno: code)
        }
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    /// Sends text (as UTF-8).
    func send(_ text: String) {
        send(Data(text.utf8))
    }

    /// Sends bytes; a failure shows up later as a read ending.
    func send(_ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = systemSend(fd, raw.baseAddress! + offset, raw.count - offset)
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    /// Shuts down the sending direction (the server reads end of stream).
    func finishSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads until the server closes or resets, or until nothing arrives for `timeout`.
    /// - Returns: everything received (including bytes buffered by `readResponse`) and how the read ended.
    func readAll(timeout: Duration = .seconds(5)) -> (bytes: Data, ending: Ending) {
        var bytes = pending
        pending = Data()
        while true {
            switch readSome(timeout: timeout) {
            case .success(let chunk): bytes.append(chunk)
            case .failure(let ending): return (bytes, ending)
            }
        }
    }

    /// Reads one complete response (for keep-alive and pipelining checks), keeping any extra bytes for later.
    /// - Parameter head: whether it answers a HEAD request (then no body follows the head).
    func readResponse(head: Bool = false, timeout: Duration = .seconds(5)) throws -> RawResponse {
        while true {
            if let (response, used) = try RawResponse.parse(pending, isHead: head, complete: false) {
                pending.removeFirst(used)
                return response
            }
            switch readSome(timeout: timeout) {
            case .success(let chunk):
                pending.append(chunk)
            case .failure(let ending):
                if ending == .endOfStream,
                    let (response, used) = try RawResponse.parse(pending, isHead: head, complete: true)
                {
                    pending.removeFirst(used)
                    return response
                }
                throw RawResponse.Incomplete(received: pending, ending: ending)
            }
        }
    }

    /// One `recv`, after waiting up to `timeout` for input.
    private func readSome(timeout: Duration) -> Result<Data, Ending> {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&descriptor, 1, milliseconds)
        guard ready > 0 else { return .failure(.timedOut) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = recv(fd, &buffer, buffer.count, 0)
        if count > 0 { return .success(Data(buffer[0..<count])) }
        if count == 0 { return .failure(.endOfStream) }
        return .failure(errno == ECONNRESET ? .reset : .failed(errno))
    }
}

/// `send(2)` without `SIGPIPE`, outside `RawClient` so that its `send` methods do not shadow it.
private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    send(fd, bytes, count, 0)
    #endif
}

private var streamSocketType: Int32 {
    #if canImport(Glibc)
    Int32(SOCK_STREAM.rawValue)
    #else
    SOCK_STREAM
    #endif
}
