#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback address the server is allowed to listen on: `127.0.0.0/8` or `::1`.
struct LoopbackAddress: Sendable, Hashable {
    private enum Family: Sendable, Hashable {
        case v4(UInt32)
        case v6
    }

    private let family: Family

    /// The host as it appears in a URL: `127.0.0.1` or `[::1]`.
    let urlHost: String

    /// Accepts dotted-quad `127.x.y.z`, `localhost` (as `127.0.0.1`) and `::1` (bracketed or not).
    /// - Parameter host: the host to check.
    /// - Returns: `nil` when `host` is not a loopback address.
    init?(_ host: String) {
        var text = host.lowercased()
        if text == "localhost" { text = "127.0.0.1" }
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            let value = UInt32(bigEndian: v4.s_addr)
            guard value >> 24 == 127 else { return nil }
            family = .v4(v4.s_addr)
            urlHost = text
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        guard bytes == Array(repeating: 0, count: 15) + [1] else { return nil }
        family = .v6
        urlHost = "[::1]"
    }

    /// Opens a listening TCP socket on this address.
    /// - Parameter port: the port to bind, `0` for any free port.
    /// - Returns: the listening descriptor and the port it is bound to.
    /// - Throws: `SystemCallError` when a socket call fails; no descriptor is left open then.
    func listen(port: Int) throws(SystemCallError) -> (fd: Int32, port: Int) {
        let domain = isV6 ? AF_INET6 : AF_INET
        let fd = socket(domain, POSIX.streamType, 0)
        guard fd >= 0 else { throw SystemCallError("socket") }
        do throws(SystemCallError) {
            POSIX.prepare(fd)
            POSIX.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
            if isV6 { POSIX.setOption(fd, level: Int32(IPPROTO_IPV6), name: Int32(IPV6_V6ONLY), value: 1) }
            try bind(fd, port: UInt16(port))
            guard systemListen(fd, 128) == 0 else { throw SystemCallError("listen") }
            return (fd, try boundPort(fd))
        } catch {
            POSIX.closeDescriptor(fd)
            throw error
        }
    }

    private var isV6: Bool {
        if case .v6 = family { return true }
        return false
    }

    private func bind(_ fd: Int32, port: UInt16) throws(SystemCallError) {
        let result: Int32
        switch family {
        case .v4(let networkOrder):
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = in_addr(s_addr: networkOrder)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    systemBind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .v6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    systemBind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        guard result == 0 else { throw SystemCallError("bind") }
    }

    private func boundPort(_ fd: Int32) throws(SystemCallError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw SystemCallError("getsockname") }
        return withUnsafePointer(to: &storage) { pointer in
            if isV6 {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            }
        }
    }
}

/// `bind(2)`, renamed so that it does not clash with `LoopbackAddress.bind`.
private func systemBind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    bind(fd, address, length)
}

/// `listen(2)`, renamed so that it does not clash with `LoopbackAddress.listen`.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
    listen(fd, backlog)
}
