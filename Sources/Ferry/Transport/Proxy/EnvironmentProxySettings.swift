import Foundation

/// The proxy settings the environment holds, read as curl reads them: what ``ProxyPolicy/environment`` applies.
///
/// - `http` URLs: `http_proxy` (only in lower case, as curl: a CGI program gets the request's `Proxy` header as
///   `HTTP_PROXY`); `https` URLs: `https_proxy`, else `HTTPS_PROXY`; either, when unset: `all_proxy`, else
///   `ALL_PROXY`. An empty variable counts as unset.
/// - A value is a URL: `http://` (also when no scheme is given), `socks5://` or `socks5h://` (both resolve the
///   host name at the proxy), with optional `user:password@` (percent-encoded) and port (1080 when omitted, as
///   curl). Any other scheme makes requests that would use it fail with
///   ``FerryError/Reason/unsupportedSetting(setting:remedy:)``: never a silent direct connection.
/// - `no_proxy`, else `NO_PROXY`: hosts reached directly, separated by commas or spaces. `*` alone means every
///   host. A name matches itself and its subdomains (`example.com` and `.example.com` both match
///   `api.example.com`); an IP address matches itself, and `10.0.0.0/8` or `fd00::/8` match by prefix. Names
///   compare without regard to case; ports are not compared.
public struct EnvironmentProxySettings: Sendable, Equatable {
    /// The proxy for `http` URLs, or why the variable cannot be used.
    var http: Entry?
    /// The proxy for `https` URLs, or why the variable cannot be used.
    var https: Entry?
    /// The hosts reached directly.
    var exclusions: [Exclusion]

    /// A proxy variable: the server it names, or the error a request that would use it fails with.
    enum Entry: Sendable, Equatable {
        case server(ProxyServer)
        case invalid(variable: String, value: String, why: String)
    }

    /// One entry of `NO_PROXY`.
    enum Exclusion: Sendable, Equatable {
        case everything
        case domain(String)
        case address([UInt8], prefixLength: Int)
    }

    /// Reads the settings from `environment`.
    /// - Parameter environment: The variables; the process's environment by default.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func value(_ names: String...) -> (name: String, value: String)? {
            for name in names {
                if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                    return (name, value)
                }
            }
            return nil
        }
        let all = value("all_proxy", "ALL_PROXY")
        let forHTTP = value("http_proxy") ?? all
        let forHTTPS = value("https_proxy", "HTTPS_PROXY") ?? all
        http = forHTTP.map { Self.entry(variable: $0.name, value: $0.value) }
        https = forHTTPS.map { Self.entry(variable: $0.name, value: $0.value) }
        var names: [String] = []
        for name in [forHTTP?.name, forHTTPS?.name].compactMap({ $0 }) where !names.contains(name) {
            names.append(name)
        }
        variableNames = names
        exclusions = value("no_proxy", "NO_PROXY").map { Self.exclusions($0.value) } ?? []
    }

    /// Whether a variable names a proxy for some URL.
    public var namesAProxy: Bool { http != nil || https != nil }

    /// The names of the proxy variables in use, for messages: `["http_proxy", "HTTPS_PROXY"]`.
    public private(set) var variableNames: [String] = []

    /// The proxy a request to `url` goes through, or `nil` for a direct connection.
    /// - Parameter url: The request's URL.
    /// - Returns: The proxy, or `nil`.
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` when the variable that applies cannot
    ///   be used.
    public func server(for url: URL) throws(FerryError) -> ProxyServer? {
        let entry: Entry? =
            switch url.scheme?.lowercased() {
            case "http": http
            case "https": https
            default: nil
            }
        guard let entry, let host = url.host(percentEncoded: false), !isExcluded(host) else { return nil }
        switch entry {
        case .server(let server):
            return server
        case .invalid(let variable, let value, let why):
            throw FerryError(
                .unsupportedSetting(
                    setting: "the proxy \(variable)=\(Self.redacted(value))",
                    remedy: "\(why) Fix or unset \(variable), or list the host in NO_PROXY."))
        }
    }

    /// Whether `NO_PROXY` lists `host`.
    func isExcluded(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let address = Self.addressBytes(host)
        return exclusions.contains { exclusion in
            switch exclusion {
            case .everything:
                return true
            case .domain(let domain):
                return host == domain || host.hasSuffix("." + domain)
            case .address(let prefix, let length):
                guard let address, address.count == prefix.count else { return false }
                return Self.matches(address, prefix, length: length)
            }
        }
    }

    // MARK: Parsing

    static func entry(variable: String, value: String) -> Entry {
        let text = value.contains("://") ? value : "http://" + value
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else {
            return .invalid(variable: variable, value: value, why: "It is not a proxy URL.")
        }
        let port = components.port ?? 1080
        guard (1...65535).contains(port) else {
            return .invalid(variable: variable, value: value, why: "Its port is out of range.")
        }
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        switch scheme {
        case "http":
            var credentials: ProxyCredentials?
            if let user = components.user {
                credentials = ProxyCredentials(username: user, password: components.password ?? "")
            }
            return .server(ProxyServer(kind: .http, host: bare, port: port, credentials: credentials))
        case "socks5", "socks5h":
            guard components.user == nil else {
                return .invalid(
                    variable: variable, value: value, why: "Ferry's transports do not authenticate to SOCKS5 proxies.")
            }
            return .server(ProxyServer(kind: .socks5, host: bare, port: port))
        default:
            return .invalid(
                variable: variable, value: value,
                why: "Ferry's transports reach proxies over http://, socks5:// or socks5h:// only, not \(scheme)://.")
        }
    }

    private static func exclusions(_ list: String) -> [Exclusion] {
        let items = list.split(whereSeparator: { $0 == "," || $0 == " " }).map { $0.lowercased() }
        if items == ["*"] { return [.everything] }
        return items.compactMap { item in
            let parts = item.split(separator: "/", maxSplits: 1)
            let host = String(parts[0]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if let bytes = addressBytes(host) {
                let length = parts.count == 2 ? Int(parts[1]) ?? -1 : bytes.count * 8
                guard (0...(bytes.count * 8)).contains(length) else { return nil }
                return .address(bytes, prefixLength: length)
            }
            let domain = host.hasPrefix(".") ? String(host.dropFirst()) : host
            return domain.isEmpty ? nil : .domain(domain)
        }
    }

    /// The bytes of an IPv4 or IPv6 address, or `nil` for a name.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    private static func matches(_ address: [UInt8], _ prefix: [UInt8], length: Int) -> Bool {
        var remaining = length
        for (byte, wanted) in zip(address, prefix) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if byte & mask != wanted & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// A proxy URL with its password replaced by `***`.
    static func redacted(_ value: String) -> String {
        guard var components = URLComponents(string: value), components.password != nil else { return value }
        components.password = "***"
        return components.string ?? value
    }
}
