import Foundation

/// The upgrade request's URL in Ferry's terms: `ws`/`wss` read as `http`/`https` on the way in (so that a WebSocket
/// URL resolves and is checked as any request's is), and back on the way out. The handshake itself is
/// ``Pipeline/webSocketHandshake(_:connect:head:)``.
package enum WebSocketHandshake {
    /// `ws` → `http` and `wss` → `https`, so that a WebSocket URL resolves and is checked as any request's URL is.
    /// Other URLs are left as they are.
    /// - Parameter url: The URL as the caller gave it.
    /// - Returns: The URL with an HTTP scheme.
    static func httpURL(_ url: some URLConvertible) -> any URLConvertible {
        if let string = url as? String { return mapped(string) }
        if let url = url as? URL { return URL(string: mapped(url.absoluteString)) ?? url }
        return url
    }

    /// A redirect's `Location`, with a `ws`/`wss` scheme read as `http`/`https`.
    static func httpLocation(_ location: String) -> String {
        mapped(location.trimmingCharacters(in: .whitespaces))
    }

    /// The string with a `ws`/`wss` scheme (any case) replaced by `http`/`https`.
    private static func mapped(_ string: String) -> String {
        let lowered = string.prefix(6).lowercased()
        if lowered.hasPrefix("ws://") { return "http://" + string.dropFirst(5) }
        if lowered.hasPrefix("wss://") { return "https://" + string.dropFirst(6) }
        return string
    }

    /// The time an upgrade may take as a whole: the request's idle timeout, or what is left of its total timeout when
    /// that is shorter; and which of the two it is.
    static func timeout(idle: Duration?, total: Duration?) -> (Duration?, FerryError.TimeoutKind) {
        if let total, idle.map({ total < $0 }) ?? true { return (total, .total) }
        return (idle, .idle)
    }

    /// The URL a WebSocket's response reports: the request's, with `ws`/`wss` for `http`/`https` (FerryTesting's
    /// in-memory server reports the same).
    package static func webSocketURL(_ url: URL) -> URL {
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

extension WebSocketHandshake {
    /// The error that fails an accepted handshake whose `101` names a subprotocol `request` did not offer (RFC 6455
    /// §4.1: the client must fail the connection), or `nil` when the choice is one of the offered, or none. The
    /// engine asks before its socket starts; a provider's socket is stopped after.
    static func unofferedSubprotocolError(in head: HTTPResponse, for request: Request) -> FerryError? {
        guard let chosen = head.headers["Sec-WebSocket-Protocol"],
            !request.headers.listElements(for: "Sec-WebSocket-Protocol").contains(chosen)
        else { return nil }
        return FerryError(
            .transport(.invalidResponse), request: request, response: head,
            underlyingError: WebSocketHandshakeError.unofferedSubprotocol(chosen))
    }
}

extension Pipeline {
    /// Adapts a prepared upgrade request (``prepare(_:)``: defaults, the checked URL, the interceptors to run) for one attempt: each interceptor in order, then the headers and URL
    /// checked again (an interceptor's change included). The cookie jar's cookies are added to each hop as it is
    /// sent.
    /// - Parameters:
    ///   - prepared: The prepared request and its interceptors.
    ///   - attempt: The attempt's number, from 1.
    /// - Returns: The request to send.
    /// - Throws: ``FerryError``: an interceptor's failure, an invalid header or URL.
    func adaptWebSocket(_ prepared: PreparedRequest, attempt: Int) async throws(FerryError) -> Request {
        var adapted = prepared.request
        for interceptor in prepared.interceptors {
            do {
                adapted = try await interceptor.adapt(adapted, attempt: attempt)
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
        return adapted
    }
}
