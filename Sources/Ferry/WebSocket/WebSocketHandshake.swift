import Foundation

/// The upgrade request's way through Ferry before an engine connects: the URL mapped and checked, the session's
/// default headers, its interceptors (an ``AuthenticationInterceptor``'s token, a `traceparent`) and its cookie jar.
///
/// The engine bounds the handshake by the request's idle timeout. Not yet through the pipeline: redirects (a 3xx is a
/// refused upgrade), retries, the total timeout, the limits on requests in flight, `EventMonitor`s, the timeline,
/// logging, metrics and tracing.
enum WebSocketHandshake {
    /// `ws` → `http` and `wss` → `https`, so that a WebSocket URL resolves and is checked as any request's URL is.
    /// Other URLs are left as they are.
    /// - Parameter url: The URL as the caller gave it.
    /// - Returns: The URL with an HTTP scheme.
    static func httpURL(_ url: some URLConvertible) -> any URLConvertible {
        if let string = url as? String { return mapped(string) }
        if let url = url as? URL { return URL(string: mapped(url.absoluteString)) ?? url }
        return url
    }

    /// The string with a `ws`/`wss` scheme (any case) replaced by `http`/`https`.
    private static func mapped(_ string: String) -> String {
        let lowered = string.prefix(6).lowercased()
        if lowered.hasPrefix("ws://") { return "http://" + string.dropFirst(5) }
        if lowered.hasPrefix("wss://") { return "https://" + string.dropFirst(6) }
        return string
    }

    /// The URL a WebSocket's response reports: the request's, with `ws`/`wss` for `http`/`https`.
    static func webSocketURL(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        switch components.scheme?.lowercased() {
        case "http": components.scheme = "ws"
        case "https": components.scheme = "wss"
        default: return url
        }
        return components.url ?? url
    }
}

/// Why a handshake that the server accepted is refused by Ferry.
enum WebSocketHandshakeError: Error {
    /// The server chose a subprotocol the client did not offer (RFC 6455 §4.1).
    case unofferedSubprotocol(String)
}

extension Pipeline {
    /// Prepares and adapts a WebSocket's upgrade request: defaults, the checked URL, the interceptors (attempt 1),
    /// the headers checked again, then the cookie jar's cookies.
    /// - Parameter request: The request as `Session.webSocket` built it.
    /// - Returns: The request to send.
    /// - Throws: ``FerryError``: an invalid URL or header, an interceptor's failure.
    func prepareWebSocket(_ request: Request) async throws(FerryError) -> Request {
        let prepared = try prepare(request)
        var adapted = prepared.request
        for interceptor in prepared.interceptors {
            do {
                adapted = try await interceptor.adapt(adapted, attempt: 1)
            } catch let error as FerryError {
                throw error.adding(request: adapted, response: nil, body: nil)
            } catch {
                if error is CancellationError || Task.isCancelled { throw FerryError(.cancelled, request: adapted) }
                throw FerryError(.interceptorFailed, request: adapted, underlyingError: error)
            }
        }
        try adapted.headers.validate()
        do throws(FerryError) {
            adapted.url = try resolve(adapted.url)
        } catch {
            throw error.adding(request: adapted, response: nil, body: nil)
        }
        guard let scheme = adapted.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw FerryError(.invalidURL("a WebSocket URL is ws, wss, http or https"), request: adapted)
        }
        return configuration.cookieJar.map { $0.addingCookies(to: adapted) } ?? adapted
    }
}
