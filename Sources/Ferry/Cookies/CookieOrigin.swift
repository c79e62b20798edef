import Foundation

/// What RFC 6265 needs to know about a request's URL: its canonical host, its path and whether it is secure.
struct CookieOrigin: Sendable {
    /// The host, lowercased (ASCII), without the brackets of an IPv6 address.
    let host: String
    /// Whether ``host`` is an IP address, which only an identical domain matches.
    let isIPAddress: Bool
    /// The URL's path as sent (percent-encoded); `/` when empty.
    let path: String
    /// Whether a `Secure` cookie may be set and sent: HTTPS or WSS, or HTTP to this machine (`localhost`,
    /// `*.localhost`, `127.0.0.0/8`, `::1`), which browsers also count as secure.
    let isSecure: Bool

    /// The origin of `url`, or `nil` when it is not HTTP(S) or WS(S) or has no host: such a URL has no cookies.
    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), ["http", "https", "ws", "wss"].contains(scheme),
            var host = url.host(percentEncoded: false), !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        host = Self.asciiLowercased(host)
        self.host = host
        isIPAddress = Self.isIPAddress(host)
        let path = url.path(percentEncoded: true)
        self.path = path.isEmpty ? "/" : path
        isSecure = scheme == "https" || scheme == "wss" || Self.isLoopback(host)
    }

    /// The path a cookie without a `Path` attribute gets (RFC 6265 §5.1.4): the request path up to, not including,
    /// its last `/`; `/` when that leaves nothing.
    var defaultPath: String {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/"), let last = bytes.lastIndex(of: UInt8(ascii: "/")),
            last != bytes.startIndex
        else { return "/" }
        return String(decoding: bytes[..<last], as: UTF8.self)
    }

    /// The domains a cookie sent to ``host`` can have: the host itself, then each parent domain
    /// (`a.example.com`, `example.com`, `com`); only the host for an IP address.
    var candidateDomains: [String] {
        guard !isIPAddress else { return [host] }
        var domains = [host]
        var rest = Substring(host)
        while let dot = rest.utf8.firstIndex(of: UInt8(ascii: ".")) {
            rest = rest[rest.utf8.index(after: dot)...]
            if !rest.isEmpty { domains.append(String(rest)) }
        }
        return domains
    }

    /// Whether a cookie whose domain is `domain` may be sent to this host (RFC 6265 §5.1.3): the same string, or a
    /// parent domain of a host name (never of an IP address).
    func domainMatches(_ domain: String) -> Bool {
        let host = host.utf8, domain = domain.utf8
        if host.elementsEqual(domain) { return true }
        guard !isIPAddress, host.count > domain.count, host.suffix(domain.count).elementsEqual(domain) else {
            return false
        }
        return host.dropLast(domain.count).last == UInt8(ascii: ".")
    }

    /// Whether a cookie whose path is `cookiePath` may be sent to this path (RFC 6265 §5.1.4): the same path, or a
    /// directory above it (`/docs` and `/docs/` match `/docs/a`; `/docs` does not match `/docsearch`).
    func pathMatches(_ cookiePath: String) -> Bool {
        let path = path.utf8, cookiePath = cookiePath.utf8
        guard path.starts(with: cookiePath) else { return false }
        if path.count == cookiePath.count || cookiePath.last == UInt8(ascii: "/") { return true }
        return path.dropFirst(cookiePath.count).first == UInt8(ascii: "/")
    }

    /// An IPv6 address (it has a colon) or a dotted IPv4 address (four decimal numbers).
    static func isIPAddress(_ host: String) -> Bool {
        if host.utf8.contains(UInt8(ascii: ":")) { return true }
        let parts = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                (1...3).contains(part.count) && part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            }
    }

    /// `localhost`, `*.localhost`, `127.0.0.0/8` or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost") || host == "::1"
            || (host.hasPrefix("127.") && isIPAddress(host))
    }

    /// `text` with ASCII letters lowercased and every other byte kept.
    static func asciiLowercased(_ text: some Collection<UInt8>) -> String {
        String(
            decoding: text.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 },
            as: UTF8.self)
    }

    /// `text` with ASCII letters lowercased.
    static func asciiLowercased(_ text: String) -> String {
        asciiLowercased(text.utf8)
    }
}
