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
    ///   - readStandardInput: Reads all of standard input, for `-d @-`.
    /// - Throws: ``UsageError`` for a bad URL, unreadable files or invalid JSON.
    init(
        options: Options, readStandardInput: () -> Data = { FileHandle.standardInput.readDataToEndOfFile() }
    )
        throws(UsageError)
    {
        var url = try URLShorthand.expand(options.url)
        body = try BodyPlan(options: options, readStandardInput: readStandardInput)
        method = HTTPMethod(rawValue: options.method ?? (body.isEmpty ? "GET" : "POST"))
        headers = Self.defaultHeaders(for: options, body: body)
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

    private static func defaultHeaders(for options: Options, body: BodyPlan) -> HTTPHeaders {
        var headers: HTTPHeaders = ["User-Agent": userAgent]
        if case .json = body {
            headers.add(name: "Accept", value: "application/json, */*;q=0.5")
        } else {
            headers.add(name: "Accept", value: "*/*")
        }
        // A download asks for the bytes as stored (Ferry's default for downloads), so that it can be resumed.
        if options.output == nil { headers.add(name: "Accept-Encoding", value: "gzip, deflate") }
        return headers
    }

    /// The request to send.
    func request() -> Request {
        var request = Request(method, url: url, headers: headers, body: body.requestBody())
        request.idleTimeout = idleTimeout
        request.totalTimeout = totalTimeout
        request.redirectPolicy = redirectLimit.map { .follow(limit: $0) } ?? .never
        return request
    }

    /// The headers as they go out: with the body's `Content-Type` and `Content-Length` and the `Host`, for `-v`.
    func headersAsSent(_ body: RequestBody?) -> HTTPHeaders {
        var shown = HTTPHeaders()
        let port = url.port.map { ":\($0)" } ?? ""
        shown.add(name: "Host", value: (url.host ?? "") + port)
        for header in headers { shown.add(name: header.name, value: header.value) }
        if let body {
            if !shown.contains("Content-Type"), let type = body.contentType {
                shown.add(name: "Content-Type", value: type)
            }
            if !shown.contains("Content-Length"), let count = body.count {
                shown.add(name: "Content-Length", value: String(count))
            }
        }
        return shown
    }
}
