import Foundation

extension Router {
    /// `/basic-auth/{user}/{password}`, `/bearer`, `/unauthorized`.
    static let authRoutes: [BuiltInRoute] = [
        BuiltInRoute("/basic-auth/:user/:password") { context in
            let user = context.parameters["user"] ?? ""
            let password = context.parameters["password"] ?? ""
            guard Credentials.basic(in: context.request) == "\(user):\(password)" else {
                return Credentials.challenge(scheme: "Basic")
            }
            return .jsonObject(["authenticated": true, "user": user])
        },
        BuiltInRoute("/bearer") { context in
            guard let token = Credentials.bearer(in: context.request), !token.isEmpty,
                context.query("token").map({ $0 == token }) ?? true
            else {
                return Credentials.challenge(scheme: "Bearer")
            }
            return .jsonObject(["authenticated": true, "token": token])
        },
        BuiltInRoute("/unauthorized") { _ in Credentials.challenge(scheme: "Basic") },
    ]
}

/// Reads credentials from `Authorization` and builds 401 challenges.
enum Credentials {
    /// The decoded `user:password` of a `Basic` authorization, or `nil`.
    static func basic(in request: TestRequest) -> String? {
        guard let encoded = value(of: "Basic", in: request), let data = Data(base64Encoded: encoded) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// The token of a `Bearer` authorization, or `nil`.
    static func bearer(in request: TestRequest) -> String? {
        value(of: "Bearer", in: request)
    }

    /// A 401 with `WWW-Authenticate: {scheme} realm="Ferry"` and `{"authenticated":false}`.
    static func challenge(scheme: String) -> TestResponse {
        TestResponse.jsonObject(["authenticated": false], status: 401)
            .adding(header: "WWW-Authenticate", value: #"\#(scheme) realm="Ferry""#)
    }

    private static func value(of scheme: String, in request: TestRequest) -> String? {
        guard let authorization = request.header("Authorization") else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].caseInsensitiveCompare(scheme) == .orderedSame else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}
