import Foundation

extension Router {
    /// `/status/{code}`, `/empty/{code}`.
    static let statusRoutes: [BuiltInRoute] = [
        BuiltInRoute("/status/:code") { context in
            guard let code = context.int("code"), (100...599).contains(code) else {
                return context.badRequest("status must be 100...599")
            }
            var response = TestResponse(status: code)
            if code == 401 { response.headers.append(("WWW-Authenticate", #"Basic realm="Ferry""#)) }
            if let retryAfter = context.query("retry-after") { response.headers.append(("Retry-After", retryAfter)) }
            if !TestResponse.isBodiless(code), code != 205 {
                response.headers.append(("Content-Type", "application/json"))
                response.body = .data(JSONBody.encode(["status": code]))
            }
            return response
        },
        BuiltInRoute("/empty/:code") { context in
            guard let code = context.int("code"), (100...599).contains(code) else {
                return context.badRequest("status must be 100...599")
            }
            return TestResponse(status: code, headers: [("Content-Length", "0")])
        },
    ]
}
