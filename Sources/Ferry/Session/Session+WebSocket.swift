import Foundation

extension Session {
    /// Makes a WebSocket; it connects when first used, in the task that uses it.
    ///
    /// The upgrade request goes through the session first: its base URL, default headers, interceptors and cookie
    /// jar apply (the interceptors see the URL with `http`/`https`). Needs the `WebSocket` package trait; without
    /// it, the task's first use throws an error that names the trait (FerryTesting's `InMemoryTransport` opens
    /// WebSockets in memory in every build).
    /// - Parameters:
    ///   - url: A `ws`, `wss`, `http` or `https` URL (`http`/`https` stand for `ws`/`wss`); relative to the base URL
    ///     when it has no scheme.
    ///   - protocols: The subprotocols offered, in order of preference (`Sec-WebSocket-Protocol`).
    ///   - headers: More headers for the upgrade request.
    ///   - options: The message size limit and the close timeout.
    /// - Returns: The task: iterate its ``WebSocketTask/messages``, ``WebSocketTask/send(_:)``,
    ///   ``WebSocketTask/close(code:reason:)``.
    public nonisolated func webSocket(
        _ url: some URLConvertible, protocols: [String] = [], headers: HTTPHeaders = [:],
        options: WebSocketOptions = WebSocketOptions()
    ) -> WebSocketTask {
        var headers = headers
        if !protocols.isEmpty { headers.add(name: "Sec-WebSocket-Protocol", value: protocols.joined(separator: ", ")) }
        let request = makeRequest(.get, WebSocketHandshake.httpURL(url), headers: headers)
        return WebSocketTask(connection: WebSocketConnection(pipeline: pipeline, request: request, options: options))
    }
}
