import Foundation

/// How a session follows redirects (301, 302, 303, 307, 308 with a `Location`).
///
/// Ferry follows redirects itself, the same way on every transport:
/// - 301 and 302 turn `POST` into `GET`; 303 turns every method but `HEAD` into `GET`; the body and its headers
///   are dropped then. 307 and 308 keep the method and resend the body.
/// - `Authorization`, `Proxy-Authorization`, `Cookie` and `Origin` are removed when a redirect leaves the origin
///   (scheme, host or port changes), and stay removed for the rest of the chain: a later redirect back to the first
///   origin does not bring them back. Interceptors adapt each attempt, not each hop, so they cannot add them back
///   either. A session's ``CookieJar`` adds to each hop the cookies of that hop's own URL only.
/// - The response's ``Metrics/urls`` records the chain.
/// - Going over the limit fails with ``FerryError/Reason/tooManyRedirects(limit:)``, so a loop ends.
public struct RedirectPolicy: Sendable {
    /// The most redirects followed for one request.
    public var limit: Int
    let decide: (@Sendable (_ next: Request, _ response: HTTPResponse) -> Request?)?

    /// Follows up to `limit` redirects.
    /// - Parameter limit: The most redirects followed; 10 by default.
    /// - Returns: The policy.
    public static func follow(limit: Int = 10) -> RedirectPolicy {
        RedirectPolicy(limit: limit, decide: nil)
    }

    /// Follows no redirect: the 3xx response is the response.
    public static let never = RedirectPolicy(limit: 0, decide: { _, _ in nil })

    /// Asks `decide` before each redirect, up to `limit`.
    /// - Parameters:
    ///   - limit: The most redirects followed.
    ///   - decide: Given the request Ferry would send next and the redirect response, returns the request to send
    ///     (possibly changed) or `nil` to stop and return the redirect response.
    /// - Returns: The policy.
    public static func custom(
        limit: Int = 10,
        _ decide: @escaping @Sendable (_ next: Request, _ response: HTTPResponse) -> Request?
    ) -> RedirectPolicy {
        RedirectPolicy(limit: limit, decide: decide)
    }

    /// The request to send after `response`, or `nil` when `response` is not a redirect to follow.
    func nextRequest(after response: HTTPResponse, to request: Request) -> Request? {
        guard [301, 302, 303, 307, 308].contains(response.statusCode),
            let location = response.headers["Location"],
            let target = URL(string: location.trimmed, relativeTo: response.url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(),
            scheme == "http" || scheme == "https" || scheme == request.url.scheme?.lowercased()
        else { return nil }

        var next = request
        next.url = target
        let becomesGET =
            (response.statusCode == 303 && request.method != .head)
            || ([301, 302].contains(response.statusCode) && request.method == .post)
        if becomesGET {
            next.method = .get
            next.body = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] {
                next.headers.remove(name: name)
            }
        }
        if !Self.sameOrigin(request.url, target) {
            for name in Self.credentialHeaderNames {
                next.headers.remove(name: name)
            }
        }
        guard let decide else { return next }
        return decide(next, response)
    }

    /// The headers a redirect to another origin removes.
    static let credentialHeaderNames = ["Authorization", "Proxy-Authorization", "Cookie", "Origin"]

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased()
            && a.host(percentEncoded: false)?.lowercased() == b.host(percentEncoded: false)?.lowercased()
            && effectivePort(a) == effectivePort(b)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }
}
