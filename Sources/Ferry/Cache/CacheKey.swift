import Foundation

/// The primary cache key (RFC 9111 §2): the request method and the target URI, normalised.
///
/// Two requests whose URLs differ only in ways RFC 9110 §4.2.3 calls equivalent get the same key: the scheme and
/// host are lowercased, the scheme's default port is dropped (`:80` for http, `:443` for https), an empty path is
/// `/`, and the fragment, which is never sent, is dropped. Percent-encoding is kept as it is (normalising it
/// could merge URLs a server tells apart), and so is the query, byte for byte.
struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The request method. A stored `GET` response answers only `GET` requests here.
    var method: HTTPMethod
    /// The normalised absolute URI, e.g. `https://example.com/a?b`.
    var uri: String

    /// The key of a request.
    /// - Parameters:
    ///   - method: The request method.
    ///   - url: The target URI.
    /// - Returns: `nil` when `url` has no scheme or host, so cannot be a cache's target.
    init?(method: HTTPMethod, url: URL) {
        guard let uri = Self.normalisedURI(url) else { return nil }
        self.method = method
        self.uri = uri
    }

    /// `"GET https://example.com/"`.
    var description: String { "\(method.rawValue) \(uri)" }

    /// The URI a cache files `url` under, as text; `nil` without a scheme or host.
    /// - Parameter url: An absolute URL.
    /// - Returns: The normalised URI.
    static func normalisedURI(_ url: URL) -> String? {
        plainHTTPURI(url.absoluteString) ?? componentsURI(url)
    }

    /// The normalised URI as `URLComponents` reads the URL: any URL with a scheme and host.
    static func componentsURI(_ url: URL) -> String? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
        else { return nil }
        components.scheme = scheme
        // Setting `host` would re-encode it; the percent-encoded form is the one that must not change.
        components.percentEncodedHost = components.percentEncodedHost?.lowercased()
        if let port = components.port, port == Self.defaultPort(for: scheme) { components.port = nil }
        if components.percentEncodedPath.isEmpty, scheme == "http" || scheme == "https" {
            components.percentEncodedPath = "/"
        }
        components.fragment = nil
        return components.string
    }

    /// The normalised URI of a plain `http` or `https` URL (ASCII, no user info, no IP-literal, no
    /// percent-encoding in the host), read from its text; `nil` for any other URL, which goes through
    /// `URLComponents`. The same result, at a fraction of the cost: `URLComponents` was a seventh of a cache hit's
    /// time (`cached-sequential` in Benchmarks/README.md, "The HTTP cache").
    static func plainHTTPURI(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            func lowercased(_ byte: UInt8) -> UInt8 {
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            }
            var uri: [UInt8] = []
            uri.reserveCapacity(bytes.count + 1)
            var index = 0
            while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
                uri.append(lowercased(bytes[index]))
                index += 1
            }
            let defaultPort: Int
            if uri.elementsEqual("http".utf8) {
                defaultPort = 80
            } else if uri.elementsEqual("https".utf8) {
                defaultPort = 443
            } else {
                return nil
            }
            guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/")
            else { return nil }
            uri.append(contentsOf: "://".utf8)
            index += 3
            let hostStart = uri.count
            var portColon: Int?
            authority: while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): break authority
                case UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "%"), 0x80...: return nil
                case UInt8(ascii: ":"):
                    guard portColon == nil else { return nil }
                    portColon = uri.count
                default: break
                }
                uri.append(lowercased(byte))
                index += 1
            }
            guard (portColon ?? uri.count) > hostStart else { return nil }
            if let portColon {
                let digits = uri[(portColon + 1)...]
                // Leading zeros and numbers past 65535 are left to URLComponents, which rewrites them.
                guard (1...5).contains(digits.count), digits.first != UInt8(ascii: "0"),
                    digits.allSatisfy({ (0x30...0x39).contains($0) })
                else { return nil }
                let port = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                guard port <= 65_535 else { return nil }
                if port == defaultPort { uri.removeSubrange(portColon...) }
            }
            if index == bytes.count || bytes[index] != UInt8(ascii: "/") { uri.append(UInt8(ascii: "/")) }
            while index < bytes.count, bytes[index] != UInt8(ascii: "#") {
                guard bytes[index] < 0x80 else { return nil }
                uri.append(bytes[index])
                index += 1
            }
            return String(decoding: uri, as: UTF8.self)
        }
    }

    /// Whether two URIs have the same origin (RFC 6454: scheme, host and port, after normalisation).
    /// - Parameters:
    ///   - a: A URL.
    ///   - b: Another URL.
    /// - Returns: `false` when either has no scheme or host.
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        guard let a = origin(of: a), let b = origin(of: b) else { return false }
        return a == b
    }

    private static func origin(of url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), let host = components.percentEncodedHost?.lowercased(),
            !host.isEmpty
        else { return nil }
        let port = components.port ?? defaultPort(for: scheme)
        return "\(scheme)://\(host):\(port.map(String.init) ?? "")"
    }

    private static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
