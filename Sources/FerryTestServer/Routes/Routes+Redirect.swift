import Foundation

extension Router {
    /// `/redirect/{n}`, `/relative-redirect/{n}`, `/absolute-redirect/{n}`, `/redirect-to`, `/redirect-loop`,
    /// `/redirect-missing-location`.
    ///
    /// As on httpbin, `/redirect/{n}` answers 302 to `/redirect/{n-1}` and `/redirect/1` answers 302 to `/get`, so a
    /// client follows n redirects in all before reaching `/get`.
    static let redirectRoutes: [BuiltInRoute] = [
        BuiltInRoute("/redirect/:n") { relativeRedirect($0, path: "/redirect") },
        BuiltInRoute("/relative-redirect/:n") { relativeRedirect($0, path: "/relative-redirect") },
        BuiltInRoute("/absolute-redirect/:n") { context in
            guard let count = context.int("n"), count >= 1 else { return context.badRequest("n must be >= 1") }
            let next = count == 1 ? "/get" : "/absolute-redirect/\(count - 1)"
            return .redirect(to: context.baseURL.absoluteString + next)
        },
        BuiltInRoute("/redirect-to") { context in
            guard let location = context.query("url") else { return context.badRequest("url is required") }
            guard Redirects.staysOnLoopback(location) else {
                return context.badRequest("redirects may only point at loopback hosts")
            }
            let status = context.queryInt("status_code") ?? 302
            guard (300...399).contains(status) else { return context.badRequest("status_code must be 300...399") }
            return .redirect(to: location, status: status)
        },
        BuiltInRoute("/redirect-loop") { _ in .redirect(to: "/redirect-loop") },
        BuiltInRoute("/redirect-missing-location") { _ in .redirect(to: nil) },
    ]

    private static func relativeRedirect(_ context: RouteContext, path: String) -> TestResponse {
        guard let count = context.int("n"), count >= 1 else { return context.badRequest("n must be >= 1") }
        return .redirect(to: count == 1 ? "/get" : "\(path)/\(count - 1)")
    }
}

/// Keeps `/redirect-to` from sending a client anywhere but this machine.
enum Redirects {
    /// Whether `location` is relative, or absolute with a loopback host (`127.0.0.0/8`, `localhost`, `::1`).
    static func staysOnLoopback(_ location: String) -> Bool {
        guard let components = URLComponents(string: location) else { return false }
        guard let host = components.host, !host.isEmpty else {
            // No host: a relative reference, or a scheme such as `data:` that opens no connection.
            return !location.hasPrefix("//")
        }
        return LoopbackAddress(host) != nil
    }
}
