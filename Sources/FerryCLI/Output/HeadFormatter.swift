import Ferry
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Request and response heads as text: a start line, then `Name: value` lines, then an empty line.
enum HeadFormatter {
    /// `POST /path?query HTTP/1.1` and the headers.
    static func request(_ plan: RequestPlan, headers: HTTPHeaders, on stream: Console.Stream) -> String {
        // The request target as sent: percent-encoding kept (`URL.path` would decode `%20` and `%2F`).
        let components = URLComponents(url: plan.url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? plan.url.path
        var target = path.isEmpty ? "/" : path
        if let query = components?.percentEncodedQuery { target += "?" + query }
        let line = stream.styled(plan.method.rawValue, .bold) + " " + stream.styled(target, .cyan) + " HTTP/1.1"
        return line + "\n" + fields(headers, on: stream) + "\n"
    }

    /// `HTTP/1.1 200 OK` and the headers, in a stable order (``stableOrder(_:)``).
    static func response(_ head: HTTPResponse, on stream: Console.Stream) -> String {
        let status = "\(head.statusCode) \(reasonPhrase(head.statusCode))"
        let line = (head.httpVersion ?? "HTTP/1.1") + " " + stream.styled(status, ANSIStyle.forStatus(head.statusCode))
        return line + "\n" + fields(stableOrder(head.headers), on: stream) + "\n"
    }

    /// The response's fields in the order received where the transport keeps it, and else by name.
    ///
    /// `ferry` runs on URLSession, whose `allHeaderFields` is a dictionary: the order the server sent is lost
    /// before Ferry sees the head, and it changes from one run to the next. Sorted by name (case ignored, the
    /// fields of one name in the order given, as `Set-Cookie`'s are), two runs print the same head.
    static func stableOrder(_ headers: HTTPHeaders) -> [HTTPHeader] {
        Array(headers).enumerated().sorted { left, right in
            let (a, b) = (left.element.name.lowercased(), right.element.name.lowercased())
            return a == b ? left.offset < right.offset : a < b
        }.map(\.element)
    }

    private static func fields(_ headers: some Sequence<HTTPHeader>, on stream: Console.Stream) -> String {
        headers.map { stream.styled($0.name, .cyan) + ": " + $0.value + "\n" }.joined()
    }

    /// `Not Found` for 404; empty for a code without a standard phrase.
    static func reasonPhrase(_ status: Int) -> String {
        let phrase = HTTPURLResponse.localizedString(forStatusCode: status)
        guard phrase != "Server Error", phrase != "Unknown" else { return "" }
        return phrase.capitalized.replacingOccurrences(of: "Ok", with: "OK")
            .replacingOccurrences(of: "Http", with: "HTTP").replacingOccurrences(of: "Uri", with: "URI")
    }
}
