import Ferry
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Request and response heads as text: a start line, then `Name: value` lines, then an empty line.
enum HeadFormatter {
    /// `POST /path?query HTTP/1.1` and the headers.
    static func request(_ plan: RequestPlan, headers: HTTPHeaders, on stream: Console.Stream) -> String {
        var target = plan.url.path.isEmpty ? "/" : plan.url.path
        if let query = plan.url.query { target += "?" + query }
        let line = stream.styled(plan.method.rawValue, .bold) + " " + stream.styled(target, .cyan) + " HTTP/1.1"
        return line + "\n" + fields(headers, on: stream) + "\n"
    }

    /// `HTTP/1.1 200 OK` and the headers.
    static func response(_ head: HTTPResponse, on stream: Console.Stream) -> String {
        let status = "\(head.statusCode) \(reasonPhrase(head.statusCode))"
        let line = (head.httpVersion ?? "HTTP/1.1") + " " + stream.styled(status, ANSIStyle.forStatus(head.statusCode))
        return line + "\n" + fields(head.headers, on: stream) + "\n"
    }

    private static func fields(_ headers: HTTPHeaders, on stream: Console.Stream) -> String {
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
