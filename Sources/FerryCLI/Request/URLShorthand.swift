import Foundation

/// Completes the URL as typed: `:8080/x` is `http://localhost:8080/x`, `localhost:8080/x` and `example.com` get
/// `http://`.
enum URLShorthand {
    /// Expands and checks a URL.
    /// - Parameters:
    ///   - typed: The URL as typed.
    ///   - webSocket: Whether it is `ferry ws`'s URL: `ws://` and `wss://` are then taken, as `http://` and
    ///     `https://` (the upgrade request's URL).
    /// - Returns: An absolute `http` or `https` URL.
    /// - Throws: ``UsageError`` when it is not one.
    static func expand(_ typed: String, webSocket: Bool = false) throws(UsageError) -> URL {
        var text = typed
        if webSocket {
            let lowered = text.prefix(6).lowercased()
            if lowered.hasPrefix("ws://") { text = "http://" + text.dropFirst(5) }
            if lowered.hasPrefix("wss://") { text = "https://" + text.dropFirst(6) }
        }
        if text.hasPrefix(":/") {
            text = "localhost" + text.dropFirst()
        } else if text.hasPrefix(":") {
            text = "localhost" + text
        }
        if text.hasPrefix("localhost") || !text.contains("://") {
            if text.hasPrefix("//") { text.removeFirst(2) }
            if !text.contains("://") { text = "http://" + text }
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host,
            !host.isEmpty
        else {
            throw UsageError("\"\(typed)\" is not a URL")
        }
        if !webSocket, scheme == "ws" || scheme == "wss" {
            throw UsageError("\"\(typed)\" is a WebSocket URL: open it with ferry ws \(typed)")
        }
        guard scheme == "http" || scheme == "https" else {
            throw UsageError(
                webSocket
                    ? "\"\(typed)\": ferry ws speaks ws, wss, http and https, not \(scheme)"
                    : "\"\(typed)\": ferry speaks http and https, not \(scheme)")
        }
        return url
    }
}
