import Foundation

extension TestServer {
    /// A response as ``TestServer/answerInProcess(_:)`` gives it: the status, the header fields a connection would
    /// send (with `Date`, and `Content-Length` for a body), and the whole body.
    public struct InProcessAnswer: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields, in order.
        public var headers: [(name: String, value: String)]
        /// The body (empty for `HEAD`).
        public var body: Data
    }

    /// Answers `request` as a connection would, by the same routes (custom ones first, then the built-in
    /// endpoints) and recorded the same way, but in process: for an in-memory transport that runs the scripted
    /// routes a network test uses. Delays are not waited for, and chunked or paced bodies arrive whole.
    /// - Parameter request: The request, with its body.
    /// - Returns: The answer; `nil` for a route that answers with a ``TestResponse/Fault`` (it has no in-process
    ///   form).
    public func answerInProcess(_ request: TestRequest) -> InProcessAnswer? {
        core.record(request)
        let response = Router.route(for: request, core: core).respond(request)
        let body: Data
        switch response.body.storage {
        case .data(let data): body = data
        case .chunked(let chunks, _), .paced(let chunks, _): body = chunks.reduce(Data(), +)
        case .pattern(let pattern): body = Self.patternBytes(count: pattern.count, offset: pattern.offset)
        case .fault: return nil
        }
        var headers = response.headers
        let names = Set(headers.map { $0.name.lowercased() })
        if !names.contains("content-length"), !names.contains("transfer-encoding") {
            headers.append(("Content-Length", "\(body.count)"))
        }
        if !names.contains("date") { headers.append(("Date", HTTPDate.format(Date()))) }
        let bodiless = request.method == "HEAD" || response.status == 304 || response.status == 204
        return InProcessAnswer(status: response.status, headers: headers, body: bodiless ? Data() : body)
    }
}
