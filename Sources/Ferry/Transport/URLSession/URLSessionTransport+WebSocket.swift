import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Darwin) && !WebSocket
/// On Apple platforms, in a build without the `WebSocket` trait, a session on URLSession runs its WebSockets on
/// `URLSessionWebSocketTask`, with no dependency. With the trait, Ferry's engine runs them on every platform, so that
/// a socket behaves the same on Linux and Apple platforms. (On Linux, FoundationNetworking's task needs a libcurl
/// built with WebSockets, which Debian 12 and Ubuntu 24.04 do not have: without the trait, a WebSocket fails there at
/// once with an error that names the trait.)
extension URLSessionTransport: WebSocketProviding {
    package func openWebSocket(
        _ request: Request, options: WebSocketOptions, inbox: WebSocketInbox
    ) async throws -> WebSocketOpen {
        try await openURLSessionWebSocket(request, options: options, inbox: inbox)
    }
}
#endif

extension URLSessionTransport {
    /// Upgrades `request` with a `URLSessionWebSocketTask` of this transport's URLSession and starts the socket.
    ///
    /// What URLSession does not offer, Ferry says: `permessage-deflate` (``WebSocketOptions/offersCompression``)
    /// fails at once with ``FerryError/Reason/unsupportedSetting(setting:remedy:)``; a refused upgrade's body is not
    /// handed over (the error has the status and head only); pings carry no payload on the wire (a ping's pong is
    /// matched to it all the same). Redirects and authentication challenges are answered as for any request (Ferry
    /// follows the first itself, the second is the refusal).
    /// - Throws: ``FerryError``: a refused upgrade as ``FerryError/Reason/unacceptableStatus(_:)`` with the head, the
    ///   handshake's timeout (the request's idle timeout, or what is left of its total one when shorter), a failed
    ///   connection, cancellation.
    func openURLSessionWebSocket(
        _ request: Request, options: WebSocketOptions, inbox: WebSocketInbox
    ) async throws(FerryError) -> WebSocketOpen {
        if options.offersCompression {
            throw FerryError(
                .unsupportedSetting(
                    setting: "WebSocketOptions.offersCompression on URLSession",
                    remedy: "URLSessionWebSocketTask does not offer permessage-deflate. Leave it off, or run the "
                        + "session on AsyncHTTPClientTransport with the WebSocket trait, whose engine offers it."),
                request: request)
        }
        let url = WebSocketHandshake.webSocketURL(request.url)
        let urlRequest = Self.upgradeRequest(for: request, url: url)
        let made: URLSessionWebSocketTask? = await withCheckedContinuation { continuation in
            // As for a data task: made and resumed off the cooperative pool.
            taskQueue.async { [self] in
                let task = makeTask { $0.webSocketTask(with: urlRequest) }
                task?.maximumMessageSize = options.maximumMessageSize
                continuation.resume(returning: task)
            }
        }
        guard let task = made else { throw FerryError(.sessionShutDown, request: request) }
        // The socket is made here, in the awaiting task, as a data task's call is, and routed before the task runs.
        let socket = URLSessionWebSocket(task: URLSessionWebSocketTaskDriver(task: task))
        router.register(socket, for: task.taskIdentifier)
        taskQueue.async { task.resume() }
        let (timeout, kind) = WebSocketHandshake.timeout(idle: request.idleTimeout, total: request.totalTimeout)
        let opening = await socket.waitForOpen(timeout: timeout)
        var head = (task.response as? HTTPURLResponse).flatMap(HTTPResponse.init)
        head?.url = url
        if head?.httpVersion == nil { head?.httpVersion = "HTTP/1.1" }
        switch opening {
        case .refused(let error):
            throw error.adding(request: request, response: nil, body: nil)
        case .failed(expired: true):
            throw FerryError(.timedOut(kind), request: request)
        case .failed:
            if let head, head.statusCode != 101 {
                throw FerryError(.unacceptableStatus(head.statusCode), request: request, response: head)
            }
            if Task.isCancelled { throw FerryError(.cancelled, request: request) }
            let error = task.error ?? URLError(.networkConnectionLost)
            throw FerryError.mapping(urlSessionError: error, url: request.url).adding(
                request: request, response: nil, body: nil)
        case .opened:
            break
        }
        let accepted =
            head
            ?? HTTPResponse(
                statusCode: 101,
                headers: HTTPHeaders(
                    [HTTPHeader(name: "Upgrade", value: "websocket"), HTTPHeader(name: "Connection", value: "Upgrade")]
                        + (socket.subprotocol.map { [HTTPHeader(name: "Sec-WebSocket-Protocol", value: $0)] } ?? [])),
                url: url, httpVersion: "HTTP/1.1")
        let run = Task { await socket.run(options: options, inbox: inbox, request: request, head: accepted) }
        return WebSocketOpen(
            request: request, head: accepted,
            send: { frame throws(FerryError) in
                do {
                    switch frame {
                    case .message(.text(let text)): try await task.send(.string(text))
                    case .message(.binary(let data)): try await task.send(.data(data))
                    case .ping(let payload):
                        // URLSession's pings carry no payload: the pong answers the ping sent with this one.
                        task.sendPing { error in
                            if error == nil { inbox.pongArrived(payload: payload) }
                        }
                    }
                } catch {
                    throw FerryError(
                        .webSocketClosed(.abnormalClosure), request: request, response: accepted,
                        underlyingError: error)
                }
            }, run: run)
    }

    /// The upgrade's `URLRequest`: the prepared request's fields but those URLSession writes itself, a `ws`/`wss` URL.
    static func upgradeRequest(for request: Request, url: URL) -> URLRequest {
        var urlRequest = urlRequest(for: request)
        urlRequest.url = url
        urlRequest.httpMethod = "GET"
        urlRequest.httpBody = nil
        for name in [
            "Connection", "Upgrade", "Sec-WebSocket-Key", "Sec-WebSocket-Version", "Content-Length",
            "Transfer-Encoding",
        ] {
            urlRequest.setValue(nil, forHTTPHeaderField: name)
        }
        return urlRequest
    }

    /// The proxy a WebSocket of a session on this transport goes through on Ferry's engine (the `WebSocket` trait):
    /// the one this transport's requests to the same URL use.
    /// - Throws: ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` for an environment variable that cannot
    ///   be used.
    func webSocketProxy(for request: Request) throws(FerryError) -> ProxyServer? {
        do throws(FerryError) {
            return try proxy.server(for: request.url, environment: environmentProxies)
        } catch {
            throw FerryError(error.reason, request: request)
        }
    }
}
