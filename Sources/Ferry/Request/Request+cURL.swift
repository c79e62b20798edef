import Foundation

extension Request {
    /// The headers whose values ``cURLDescription(redacting:)`` hides by default: `Authorization`, `Cookie` and
    /// `Proxy-Authorization`.
    public static let sensitiveHeaderNames: Set<String> = ["Authorization", "Cookie", "Proxy-Authorization"]

    /// The request as a `curl` command line, to replay it in a shell; secrets are replaced by `***`.
    ///
    /// The values of the `redacted` headers (compared case-insensitively) and a password in the URL are hidden. A
    /// text body is shown in full; a binary body, a file or a stream by what it is. Session defaults (base URL,
    /// default headers) are not applied: ``Session/cURLDescription(of:)`` does that.
    ///
    /// ```
    /// curl -X POST 'https://api.example.com/v1/users' \
    ///   -H 'Authorization: ***' \
    ///   -H 'Content-Type: application/json' \
    ///   --data-binary '{"name":"Ada"}'
    /// ```
    /// - Parameter redacted: The header names whose values are hidden.
    /// - Returns: The command.
    public func cURLDescription(redacting redacted: Set<String> = Request.sensitiveHeaderNames) -> String {
        let hidden = Set(redacted.map { $0.lowercased() })
        let verb = method == .get ? "" : method == .head ? " --head" : " -X \(method.rawValue)"
        var lines = ["curl\(verb) \(Self.quoted(FerryError.display(url)))"]
        for field in headers {
            let value = hidden.contains(field.name.lowercased()) ? "***" : field.value
            lines.append("-H \(Self.quoted("\(field.name): \(value)"))")
        }
        if let body, let contentType = body.contentType, !headers.contains("Content-Type") {
            lines.append("-H \(Self.quoted("Content-Type: \(contentType)"))")
        }
        if let body { lines.append(Self.describe(body.content)) }
        return lines.joined(separator: " \\\n  ")
    }

    private static func describe(_ content: RequestBody.Content) -> String {
        switch content {
        case .data(let data):
            if let text = String(data: data, encoding: .utf8),
                !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
            {
                return "--data-binary \(quoted(text))"
            }
            return "--data-binary @- # \(data.count) bytes of binary data"
        case .file(let url):
            return "--data-binary \(quoted("@" + url.path))"
        case .stream(_, let count):
            return "--data-binary @- # a stream" + (count.map { " of \($0) bytes" } ?? "")
        }
    }

    /// `text` in single quotes for a POSIX shell.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
