import Foundation

extension Session {
    /// Starts a request whose body is consumed as it arrives.
    /// - Parameters:
    ///   - url: The URL; relative to the base URL when it has no scheme.
    ///   - query: Query items.
    ///   - headers: Headers, e.g. `Accept: text/event-stream`.
    ///   - options: How unread bytes are buffered.
    /// - Returns: The task: await its ``StreamTask/response``, iterate its ``StreamTask/bytes``.
    public func stream(
        _ url: some URLConvertible, query: [URLQueryItem] = [], headers: HTTPHeaders = [:],
        options: StreamOptions = StreamOptions()
    ) -> StreamTask {
        switch makeRequest(.get, url, query: query, headers: headers) {
        case .success(let request):
            return stream(request, options: options)
        case .failure(let error):
            let buffer = StreamBuffer(options: options)
            buffer.finish(error)
            return StreamTask(
                transfer: Self.failedTransfer(error), buffer: buffer,
                request: Request(url: URL(fileURLWithPath: "/")), validation: configuration.validation)
        }
    }

    /// Sends a request whose body is consumed as it arrives.
    /// - Parameters:
    ///   - request: The request.
    ///   - options: How unread bytes are buffered.
    /// - Returns: The task.
    public func stream(_ request: Request, options: StreamOptions = StreamOptions()) -> StreamTask {
        let buffer = StreamBuffer(options: options)
        let transfer = start(request) { pipeline, request, transfer in
            await pipeline.run(request, finishing: transfer, destination: .stream(buffer))
        }
        if let error = transfer.finishedError { buffer.finish(error) }
        return StreamTask(transfer: transfer, buffer: buffer, request: request, validation: configuration.validation)
    }
}
