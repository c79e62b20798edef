import Ferry
import Foundation

/// Where each part of an exchange is printed.
///
/// By default the response head and a one-line summary go to standard error and the body alone to standard
/// output, so `ferry URL | jq .` gets just the body; `-v` adds the request, on standard error too, and `-q` leaves
/// standard error to errors. `--print` picks parts explicitly and sends all of them to standard output.
struct Layout {
    let options: Options
    let console: Console

    /// The selected parts.
    var selection: PrintSelection {
        options.print
            ?? PrintSelection(
                requestHeaders: options.isVerbose, requestBody: options.isVerbose, responseHeaders: true,
                responseBody: true)
    }

    /// Where heads (and the request body) go: standard output with `--print`, else standard error; `nil` with `-q`.
    var headStream: Console.Stream? {
        if options.print != nil { return console.out }
        return options.isQuiet ? nil : console.err
    }

    /// Where notes (summary line, progress, hints) go; `nil` with `-q` or `--print`.
    var noteStream: Console.Stream? {
        options.isQuiet || options.print != nil ? nil : console.err
    }

    /// Prints the request's head (as ``RequestPlan/headersAsSent(_:download:cookies:)`` has it) and body as
    /// selected; with `offline`, on standard output, and both unless `--print` says otherwise.
    func printRequest(
        _ plan: RequestPlan, body: RequestBody?, download: Bool = false, cookies: [Cookie] = [],
        offline: Bool = false
    ) {
        let chosen =
            offline
            ? options.print
                ?? PrintSelection(requestHeaders: true, requestBody: true, responseHeaders: false, responseBody: false)
            : selection
        guard let stream = offline ? console.out : headStream else { return }
        if chosen.requestHeaders {
            let headers = plan.headersAsSent(body, download: download, cookies: cookies)
            stream.write(HeadFormatter.request(plan, headers: headers, on: stream))
        }
        if chosen.requestBody, let text = Self.describe(plan.body, on: stream) {
            stream.write(text + "\n")
        }
    }

    /// Prints `ferry ws`'s upgrade request head (``RequestPlan/webSocketHeadersAsSent(protocols:cookies:)``) as
    /// selected; with `offline`, on standard output.
    func printWebSocketRequest(_ plan: RequestPlan, protocols: [String], cookies: [Cookie], offline: Bool = false) {
        let shows = offline ? options.print?.requestHeaders ?? true : selection.requestHeaders
        guard shows, let stream = offline ? console.out : headStream else { return }
        let headers = plan.webSocketHeadersAsSent(protocols: protocols, cookies: cookies)
        stream.write(HeadFormatter.request(plan, headers: headers, on: stream))
    }

    /// `--print m`: the elapsed time, as httpie's metadata has it.
    func printMetadata(_ timeline: Timeline) {
        guard selection.metadata, let stream = headStream else { return }
        let seconds =
            Double(timeline.requestDuration.components.seconds)
            + Double(timeline.requestDuration.components.attoseconds) / 1e18
        stream.write("Elapsed time: \(String(format: "%.3f", seconds))s\n")
    }

    /// Prints the response head as selected.
    func printResponseHead(_ head: HTTPResponse) {
        guard selection.responseHeaders, let stream = headStream else { return }
        stream.write(HeadFormatter.response(head, on: stream))
    }

    /// Prints a whole response body as selected: formatted on a terminal, the bytes as they are elsewhere.
    func printResponseBody(_ data: Data, head: HTTPResponse) {
        guard selection.responseBody, !data.isEmpty else { return }
        let stream = console.out
        if stream.isTerminal {
            stream.write(BodyFormatter.format(data, contentType: head.contentType, on: stream))
        } else {
            stream.write(data)
        }
    }

    /// `ferry: <message>` on standard error, whatever `-q` says.
    func printError(_ message: String) {
        console.err.write(console.err.styled("ferry:", .red) + " " + message + "\n")
    }

    /// A line on the note stream.
    func note(_ text: String) {
        noteStream?.write(noteStream?.styled(text, .dim) ?? text)
        noteStream?.write("\n")
    }

    /// `--timeline`'s waterfall, on standard error.
    func printTimeline(_ timeline: Timeline, metrics: Metrics) {
        guard options.showsTimeline else { return }
        console.err.write(Waterfall(timeline, redirects: metrics.redirectCount, cache: metrics.cacheStatus).render())
    }

    /// The request body for a person.
    static func describe(_ body: BodyPlan, on stream: Console.Stream) -> String? {
        switch body {
        case .none:
            return nil
        case .json(let data):
            // As sent on a pipe; pretty-printed (members by key) for a person on a terminal.
            guard stream.isTerminal else { return String(decoding: data, as: UTF8.self) }
            return BodyFormatter.format(data, contentType: "application/json", on: stream)
        case .form(let pairs):
            var components = URLComponents()
            components.queryItems = pairs.map { URLQueryItem(name: $0.name, value: $0.value) }
            return components.percentEncodedQuery ?? ""
        case .multipart(let parts):
            return parts.map { part in
                switch part {
                case .text(let name, let value): return "\(name)=\(value)"
                case .file(let name, let path): return "\(name)@\(path) (\(fileSize(path)))"
                }
            }.joined(separator: "\n")
        case .data(let data, let type):
            return BodyFormatter.format(data, contentType: type, on: stream)
        case .file(let path, _):
            return stream.styled("(the contents of \(path), \(fileSize(path)))", .dim)
        }
    }

    private static func fileSize(_ path: String) -> String {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? nil
        return size.map(Units.bytes) ?? "size unknown"
    }
}
