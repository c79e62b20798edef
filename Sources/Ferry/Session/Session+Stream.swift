import Foundation

extension Session {
    /// Makes a request whose body is consumed as it arrives; it is sent when the task is first awaited.
    /// - Parameters:
    ///   - url: The URL; relative to the base URL when it has no scheme.
    ///   - method: The method; `GET` by default (`POST` is how LLM APIs stream server-sent events).
    ///   - query: Query items.
    ///   - headers: Headers, e.g. `Accept: text/event-stream`.
    ///   - body: The request body, if any.
    ///   - options: How unread bytes are buffered by a transport that cannot pause reading.
    /// - Returns: The task: await its ``StreamTask/head``, iterate its ``StreamTask/bytes``.
    public nonisolated func stream(
        _ url: some URLConvertible, method: HTTPMethod = .get, query: [URLQueryItem] = [],
        headers: HTTPHeaders = [:], body: RequestBody? = nil, options: StreamOptions = StreamOptions()
    ) -> StreamTask {
        switch makeRequest(method, url, query: query, headers: headers, body: body) {
        case .success(let request):
            return stream(request, options: options)
        case .failure(let error):
            return StreamTask(transfer: Transfer(failed: error), validation: configuration.validation)
        }
    }

    /// Makes a request whose body is consumed as it arrives.
    /// - Parameters:
    ///   - request: The request.
    ///   - options: How unread bytes are buffered by a transport that cannot pause reading.
    /// - Returns: The task.
    public nonisolated func stream(_ request: Request, options: StreamOptions = StreamOptions()) -> StreamTask {
        StreamTask(
            transfer: Transfer(
                .stream(pipeline, request), controls: TransferControls(bufferOptions: options), registry: registry),
            validation: configuration.validation)
    }
}
