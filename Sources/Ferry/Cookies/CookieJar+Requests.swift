import Foundation

extension CookieJar {
    /// `request` with the jar's cookies for its URL added: appended to its own `Cookie` field when it has one (a
    /// request sends one `Cookie` field, RFC 6265 §5.4), in a new one otherwise.
    func addingCookies(to request: Request) -> Request {
        let cookies = cookies(for: request.url)
        guard !cookies.isEmpty else { return request }
        var pairs = cookies.map { "\($0.name)=\($0.value)" }
        let own = request.headers.values(for: "Cookie")
        if !own.isEmpty { pairs.insert(contentsOf: own, at: 0) }
        var request = request
        request.headers.update(name: "Cookie", value: pairs.joined(separator: "; "))
        return request
    }

    /// Stores the `Set-Cookie` fields of `head`, the response to a request for `url`.
    func storeCookies(of head: HTTPResponse, for url: URL) {
        let fields = head.headers.values(for: "Set-Cookie")
        guard !fields.isEmpty else { return }
        store(setCookieFields: fields, for: url)
    }
}
