import Ferry
import Foundation

/// The request the command line describes, resolved: method, URL with its query, headers, body, timeouts and
/// redirects. Everything `ferry` sends, prints with `-v` or turns into a curl command comes from here.
struct RequestPlan: Sendable {
    var method: HTTPMethod
    var url: URL
    var headers: HTTPHeaders
    var body: BodyPlan
    var idleTimeout: Duration?
    var totalTimeout: Duration?
    /// How many redirects to follow; `nil` not to follow any (the 3xx is the answer).
    var redirectLimit: Int?

    /// The `User-Agent` ferry sends unless told otherwise.
    static let userAgent = "ferry/\(Session.version)"

    /// Resolves the options.
    /// - Parameters:
    ///   - options: The parsed command line.
    ///   - readStandardInput: Reads all of standard input, for `--raw @-`.
    ///   - sessionHeaders: The headers a `--session` file keeps, sent unless the command line says otherwise.
    ///   - password: Asks for the password of `-a USER` (no colon); `nil` when there is no terminal to ask on.
    /// - Throws: ``UsageError`` for a bad URL, unreadable files, invalid JSON or unusable credentials.
    init(
        options: Options, readStandardInput: () -> Data = { FileHandle.standardInput.readDataToEndOfFile() },
        sessionHeaders: HTTPHeaders = [:], password: (String) -> String? = { _ in nil }
    )
        throws(UsageError)
    {
        var url = try URLShorthand.expand(options.url, webSocket: options.isWebSocket)
        body = try BodyPlan(options: options, readStandardInput: readStandardInput)
        method = HTTPMethod(rawValue: options.method ?? (body.isEmpty ? "GET" : "POST"))
        headers = Self.defaultHeaders(for: options, body: body)
        for header in sessionHeaders { headers.update(name: header.name, value: header.value) }
        if let auth = options.auth {
            headers.update(
                name: "Authorization", value: try Self.authorization(auth, type: options.authType, password: password))
        }
        var query: [URLQueryItem] = []
        for item in options.items {
            switch item {
            case .header(let name, let value):
                let value = value.trimmingCharacters(in: .whitespaces)
                if value.isEmpty { headers.remove(name: name) } else { headers.update(name: name, value: value) }
            case .query(let name, let value):
                query.append(URLQueryItem(name: name, value: value))
            default:
                break
            }
        }
        if !query.isEmpty {
            var request = Request(url: url)
            request.appendQuery(query)
            url = request.url
        }
        self.url = url
        idleTimeout = options.idleTimeout.map { .milliseconds(Int64(($0 * 1000).rounded())) }
        totalTimeout = options.totalTimeout.map { .milliseconds(Int64(($0 * 1000).rounded())) }
        redirectLimit = options.follows ? options.maxRedirects : nil
    }

    /// The `Authorization` value of `-a`, made by the library's ``AuthenticationCredential``.
    static func authorization(
        _ auth: String, type: Options.AuthType, password: (String) -> String?
    ) throws(UsageError) -> String {
        switch type {
        case .bearer:
            return AuthenticationCredential.bearer(auth).authorization
        case .basic:
            var user = auth
            var secret: String
            if let colon = auth.firstIndex(of: ":") {
                user = String(auth[..<colon])
                secret = String(auth[auth.index(after: colon)...])
            } else if let typed = password(auth) {
                secret = typed
            } else {
                throw UsageError(
                    "-a \(auth) has no password and there is no terminal to ask for it; use -a \(auth):PASSWORD")
            }
            do {
                return try AuthenticationCredential.basic(username: user, password: secret).authorization
            } catch {
                throw UsageError("-a/--auth: \(error.localizedDescription)")
            }
        }
    }

    /// What `ferry` sends unless told otherwise: `User-Agent`, `Accept` and, except for downloads, `Accept-Encoding`;
    /// `User-Agent` alone for `ferry ws`'s upgrade request, whose answer has no body.
    static func defaultHeaders(for options: Options, body: BodyPlan) -> HTTPHeaders {
        var headers: HTTPHeaders = ["User-Agent": userAgent]
        if options.isWebSocket { return headers }
        if case .json = body {
            headers.add(name: "Accept", value: "application/json, */*;q=0.5")
        } else if options.isJSON {
            headers.add(name: "Accept", value: "application/json, */*;q=0.5")
        } else {
            headers.add(name: "Accept", value: "*/*")
        }
        // A download asks for the bytes as stored (Ferry's default for downloads), so that it can be resumed.
        if !options.savesToFile { headers.add(name: "Accept-Encoding", value: "gzip, deflate") }
        return headers
    }

    /// The headers a `--session` keeps: the plan's, without the defaults `ferry` adds anyway (so that a later run
    /// still chooses its own `Accept`).
    func sessionHeaders(for options: Options) -> HTTPHeaders {
        let defaults = Self.defaultHeaders(for: options, body: body)
        var kept = HTTPHeaders()
        for header in headers where defaults.values(for: header.name) != [header.value] {
            kept.add(name: header.name, value: header.value)
        }
        return kept
    }

    /// The upgrade request's headers as they go out for `ferry ws`, in order: `Host`, the plan's own, the offered
    /// subprotocols, the cookie jar's `Cookie`, then what the WebSocket engine adds (`Connection`, `Upgrade`, a
    /// fresh random `Sec-WebSocket-Key`, shown as a placeholder, and `Sec-WebSocket-Version`). For `-v` and
    /// `--offline`.
    func webSocketHeadersAsSent(protocols: [String], cookies: [Cookie] = []) -> HTTPHeaders {
        var shown = HTTPHeaders()
        let defaultPort = url.scheme?.lowercased() == "https" ? 443 : 80
        let port = url.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        shown.add(name: "Host", value: (url.host ?? "") + port)
        // The engine writes these itself, whatever the request says.
        let reserved: Set<String> = [
            "host", "connection", "upgrade", "sec-websocket-key", "sec-websocket-version", "content-length",
            "transfer-encoding",
        ]
        for header in headers where !reserved.contains(header.name.lowercased()) {
            shown.add(name: header.name, value: header.value)
        }
        if !protocols.isEmpty { shown.add(name: "Sec-WebSocket-Protocol", value: protocols.joined(separator: ", ")) }
        if !cookies.isEmpty {
            let pairs = shown.values(for: "Cookie") + cookies.map { "\($0.name)=\($0.value)" }
            shown.update(name: "Cookie", value: pairs.joined(separator: "; "))
        }
        shown.add(name: "Connection", value: "upgrade")
        shown.add(name: "Upgrade", value: "websocket")
        shown.add(name: "Sec-WebSocket-Key", value: "(16 random bytes in base64, new for each connection)")
        shown.add(name: "Sec-WebSocket-Version", value: "13")
        return shown
    }

    /// The request to send.
    func request() -> Request {
        var request = Request(method, url: url, headers: headers, body: body.requestBody())
        request.idleTimeout = idleTimeout
        request.totalTimeout = totalTimeout
        request.redirectPolicy = redirectLimit.map { .follow(limit: $0) } ?? .never
        return request
    }

    /// The headers as they go out, in the order they are handed over: `Host`, the plan's own, then what Ferry adds
    /// when it prepares the request (the body's `Content-Type`, `Accept-Encoding: identity` for a download, the
    /// cookie jar's `Cookie`), then what the transport adds (`Content-Length`; on Linux without the `AsyncHTTPClient`
    /// trait, FoundationNetworking's `Connection` and `Accept-Language`). For `-v` and `--offline`.
    func headersAsSent(_ body: RequestBody?, download: Bool = false, cookies: [Cookie] = []) -> HTTPHeaders {
        var shown = HTTPHeaders()
        let port = url.port.map { ":\($0)" } ?? ""
        shown.add(name: "Host", value: (url.host ?? "") + port)
        for header in headers { shown.add(name: header.name, value: header.value) }
        if let body, !shown.contains("Content-Type"), let type = body.contentType {
            shown.add(name: "Content-Type", value: type)
        }
        if download, !shown.contains("Accept-Encoding") { shown.add(name: "Accept-Encoding", value: "identity") }
        if !cookies.isEmpty {
            let pairs = shown.values(for: "Cookie") + cookies.map { "\($0.name)=\($0.value)" }
            shown.update(name: "Cookie", value: pairs.joined(separator: "; "))
        }
        #if canImport(FoundationNetworking) && !AsyncHTTPClient  // with the trait, every ferry request runs on it
        if !shown.contains("Connection") { shown.add(name: "Connection", value: "keep-alive") }
        if !shown.contains("Accept-Language") { shown.add(name: "Accept-Language", value: "en") }
        #endif
        if let body, !shown.contains("Content-Length"), let count = body.count {
            shown.add(name: "Content-Length", value: String(count))
        }
        return shown
    }
}
