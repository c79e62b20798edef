/// What a ``Transport`` gives back for one hop: the head, and the body still to be read.
public struct TransportResponse: Sendable {
    /// The status, headers, URL and HTTP version.
    public var head: HTTPResponse
    /// The body, read once by the pipeline (or by a stream's consumer).
    public var body: ResponseBody

    /// Creates a response.
    /// - Parameters:
    ///   - head: The head.
    ///   - body: The body; ``ResponseBody/empty`` when there is none.
    public init(head: HTTPResponse, body: ResponseBody) {
        self.head = head
        self.body = body
    }
}
