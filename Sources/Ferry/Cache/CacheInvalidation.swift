import Foundation

/// The URIs whose stored responses an unsafe request invalidates (RFC 9111 §4.4).
enum CacheInvalidation {
    /// The methods RFC 9110 §9.2.1 defines as safe; every other method, known or not, is treated as unsafe.
    static let safeMethods: Set<HTTPMethod> = [.get, .head, .options, .trace]

    /// The normalised URIs (``CacheKey/normalisedURI(_:)``) to invalidate after `response` answered a request
    /// (§4.4): after an unsafe method and a non-error status (2xx or 3xx), the target URI, and the URIs of
    /// `Location` and `Content-Location` (resolved against the target) when they have the target's origin. Stored
    /// responses for those URIs are invalidated whatever their method.
    /// - Parameters:
    ///   - method: The request's method.
    ///   - url: The request's target URI.
    ///   - response: The response head.
    /// - Returns: The URIs, without duplicates, target first; empty when nothing is invalidated.
    static func invalidatedURIs(method: HTTPMethod, url: URL, response: HTTPResponse) -> [String] {
        guard !safeMethods.contains(method), (200..<400).contains(response.statusCode),
            let target = CacheKey.normalisedURI(url)
        else { return [] }
        var uris = [target]
        for name in ["Location", "Content-Location"] {
            guard let value = response.headers[name]?.trimmingOWS,
                let resolved = URL(string: value, relativeTo: url)?.absoluteURL,
                CacheKey.sameOrigin(resolved, url),
                let uri = CacheKey.normalisedURI(resolved), !uris.contains(uri)
            else { continue }
            uris.append(uri)
        }
        return uris
    }
}
