import Ferry
import Foundation

/// `ferry [options] <url>`: one request, printed.
struct FetchCommand {
    static let usage = """
        usage: ferry demo
               ferry [-X METHOD] [-H 'Name: value']... [-d BODY | --json BODY] [--timeout SECONDS] [--no-validate] <url>

        Sends the request with Ferry and prints the status line, the headers, the body (pretty-printed when it
        is JSON) and the timeline Ferry measured.
        """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    var method: HTTPMethod = .get
    var headers = HTTPHeaders()
    var body: RequestBody?
    var timeout: Duration?
    var validates = true
    var url = ""

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        func value(for option: String) throws -> String {
            guard let value = remaining.popFirst() else { throw UsageError(description: "\(option) needs a value") }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "-X", "--request": method = HTTPMethod(rawValue: try value(for: argument).uppercased())
            case "-H", "--header":
                let line = try value(for: argument)
                guard let colon = line.firstIndex(of: ":") else {
                    throw UsageError(description: "header \"\(line)\" has no colon")
                }
                headers.add(
                    name: String(line[..<colon]),
                    value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            case "-d", "--data":
                body = .text(try value(for: argument), contentType: "application/octet-stream")
                if method == .get { method = .post }
            case "--json":
                body = .data(Data(try value(for: argument).utf8), contentType: "application/json")
                if method == .get { method = .post }
            case "--timeout":
                guard let seconds = Double(try value(for: argument)), seconds > 0 else {
                    throw UsageError(description: "--timeout takes a positive number of seconds")
                }
                timeout = .milliseconds(Int64(seconds * 1000))
            case "--no-validate": validates = false
            default:
                guard !argument.hasPrefix("-") else { throw UsageError(description: "unknown option \(argument)") }
                url = argument
            }
        }
        guard !url.isEmpty else { throw UsageError(description: "no URL given") }
    }

    func run() async -> Int32 {
        let resolved: URL
        do {
            resolved = try url.url(relativeTo: nil)
        } catch {
            Output.error(error)
            return 1
        }
        var request = Request(method, url: resolved, headers: headers, body: body)
        request.totalTimeout = timeout
        let session = Session()
        let task = session.request(request)
        let response = await (validates ? task : task.unvalidated()).response
        Output.print(response)
        await session.shutdown()
        return response.error == nil ? 0 : 1
    }
}
