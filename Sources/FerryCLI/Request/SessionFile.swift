import Ferry
import Foundation

/// `--session NAME|PATH`: the request headers (`Authorization` included) and the cookies kept between runs, in a
/// JSON file.
///
/// A NAME is kept per host, in `$XDG_CONFIG_HOME/ferry/sessions/<host>_<port>/NAME.json` (`~/.config` when
/// `XDG_CONFIG_HOME` is not set); a value with a `/` is the file's path. A run reads the file, sends its headers
/// unless the command line sets them, sends its cookies through a ``CookieJar``, and writes back the headers it
/// sent and the cookies the jar holds afterwards. Headers that describe one request (`Content-Type`,
/// `Content-Length`, `Host`, `Cookie`, `If-…`) are not kept.
struct SessionFile {
    /// Where the file is.
    let path: URL
    /// The headers kept, in order.
    var headers: HTTPHeaders = [:]
    /// The cookies kept.
    var cookies: [Cookie] = []

    /// The file for `--session value` and a request to `url`.
    static func location(
        for value: String, url: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if value.contains("/") { return URL(fileURLWithPath: (value as NSString).expandingTildeInPath) }
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        let port = url.port ?? (url.scheme == "https" ? 443 : 80)
        let host = "\(url.host ?? "localhost")_\(port)".replacingOccurrences(of: ":", with: "_")
        return URL(fileURLWithPath: config).appendingPathComponent("ferry/sessions/\(host)/\(value).json")
    }

    /// Reads the file; a missing file is an empty session.
    /// - Throws: ``UsageError`` when the file is there but is not a session.
    init(path: URL) throws(UsageError) {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path.path) else { return }
        let json: JSON
        do {
            json = try JSON(parsing: data)
        } catch {
            throw UsageError("--session \(path.path) is not a session file: \(error)")
        }
        for header in json["headers"]?.arrayValue ?? [] {
            if let name = header["name"]?.stringValue, let value = header["value"]?.stringValue {
                headers.add(name: name, value: value)
            }
        }
        for cookie in json["cookies"]?.arrayValue ?? [] {
            guard let name = cookie["name"]?.stringValue, let value = cookie["value"]?.stringValue,
                let domain = cookie["domain"]?.stringValue
            else { continue }
            cookies.append(
                Cookie(
                    name: name, value: value, domain: domain, path: cookie["path"]?.stringValue ?? "/",
                    expires: cookie["expires"]?.doubleValue.map { Date(timeIntervalSince1970: $0) },
                    isSecure: cookie["secure"]?.boolValue ?? false,
                    isHostOnly: cookie["host_only"]?.boolValue ?? true))
        }
    }

    /// A cookie jar holding the session's cookies.
    func makeJar() -> CookieJar {
        let jar = CookieJar()
        for cookie in cookies { _ = jar.setCookie(cookie) }
        return jar
    }

    /// Whether a header is kept between runs.
    static func keeps(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return !["content-type", "content-length", "host", "cookie"].contains(lowered) && !lowered.hasPrefix("if-")
    }

    /// Writes the headers sent and the jar's cookies back, creating the directory when needed.
    /// - Throws: When the file cannot be written.
    func save(headers sent: HTTPHeaders, jar: CookieJar) throws {
        var headerList: [JSON] = []
        for header in sent where Self.keeps(header.name) {
            headerList.append(.object(["name": .string(header.name), "value": .string(header.value)]))
        }
        let cookieList: [JSON] = jar.allCookies.map { cookie in
            .object([
                "name": .string(cookie.name), "value": .string(cookie.value), "domain": .string(cookie.domain),
                "path": .string(cookie.path), "secure": .bool(cookie.isSecure), "host_only": .bool(cookie.isHostOnly),
                "expires": cookie.expires.map { .number(JSONNumber(Int64($0.timeIntervalSince1970))) } ?? .null,
            ])
        }
        let file: JSON = .object([
            "__meta__": .object([
                "about": .string("ferry session file: headers and cookies sent again by --session"),
                "ferry": .string(Session.version),
            ]),
            "headers": .array(headerList),
            "cookies": .array(cookieList),
        ])
        try FileManager.default.createDirectory(
            at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (file.encoded(pretty: true) + Data("\n".utf8)).write(to: path, options: .atomic)
    }
}
