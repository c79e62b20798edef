import Foundation

extension Router {
    /// `/cookies`, `/cookies/set?name=value…`, `/cookies/delete?name…`, `/cookies/redirect-to?url=…&set=…`.
    ///
    /// `/cookies/redirect-to` answers 302 (or `status_code`) to `url`, a loopback or relative URL, with one
    /// `Set-Cookie` field for each `set` item, as given: a redirect that sets cookies on its way.
    static let cookieRoutes: [BuiltInRoute] = [
        BuiltInRoute("/cookies") { context in .jsonObject(["cookies": Cookies.received(by: context.request)]) },
        BuiltInRoute("/cookies/set") { context in
            context.request.queryItems.reduce(TestResponse.redirect(to: "/cookies")) { response, item in
                response.adding(header: "Set-Cookie", value: "\(item.name)=\(item.value); Path=/")
            }
        },
        BuiltInRoute("/cookies/delete") { context in
            context.request.queryItems.reduce(TestResponse.redirect(to: "/cookies")) { response, item in
                response.adding(
                    header: "Set-Cookie",
                    value: "\(item.name)=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/"
                )
            }
        },
        BuiltInRoute("/cookies/redirect-to") { context in
            guard let location = context.query("url") else { return context.badRequest("url is required") }
            guard Redirects.staysOnLoopback(location) else {
                return context.badRequest("redirects may only point at loopback hosts")
            }
            let status = context.queryInt("status_code") ?? 302
            guard (300...399).contains(status) else { return context.badRequest("status_code must be 300...399") }
            return context.request.queryItems.filter { $0.name == "set" }.reduce(
                TestResponse.redirect(to: location, status: status)
            ) { response, item in
                response.adding(header: "Set-Cookie", value: item.value)
            }
        },
    ]
}

/// Parses `Cookie` header fields.
enum Cookies {
    /// Every `name=value` pair of every `Cookie` field; when a name repeats, the last value wins.
    static func received(by request: TestRequest) -> [String: String] {
        var cookies: [String: String] = [:]
        for field in request.headerValues("Cookie") {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { continue }
                cookies[name] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            }
        }
        return cookies
    }
}
