import Foundation

/// Completes the URL as typed: `:8080/x` is `http://localhost:8080/x`, `localhost:8080/x` and `example.com` get
/// `http://`.
enum URLShorthand {
    /// Expands and checks a URL.
    /// - Parameter typed: The URL as typed.
    /// - Returns: An absolute `http` or `https` URL.
    /// - Throws: ``UsageError`` when it is not one.
    static func expand(_ typed: String) throws(UsageError) -> URL {
        var text = typed
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
        guard scheme == "http" || scheme == "https" else {
            throw UsageError("\"\(typed)\": ferry speaks http and https, not \(scheme)")
        }
        return url
    }
}
