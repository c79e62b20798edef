import Foundation

extension Router {
    /// `/json`, `/json/user`, `/json/space`, `/json/invalid`, `/html`, `/text`, `/bytes-raw`.
    static let documentRoutes: [BuiltInRoute] = [
        BuiltInRoute("/json") { _ in .json(TestServer.sampleJSON) },
        BuiltInRoute("/json/user") { _ in .json(#"{"id":42,"name":"Ada Lovelace","email":"ada@example.com"}"#) },
        BuiltInRoute("/json/space") { _ in .json(" ") },
        BuiltInRoute("/json/invalid") { _ in .json(#"{"broken":"#) },
        BuiltInRoute("/html") { _ in
            TestResponse(
                status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: .text(Documents.html))
        },
        BuiltInRoute("/text") { context in
            let charset = context.query("charset") ?? "utf-8"
            let defaultText = ["us-ascii", "ascii"].contains(charset.lowercased()) ? "Hello, Ferry!" : "Grüße, café"
            guard TextEncoding.supported.contains(charset.lowercased()) else {
                return context.badRequest("unsupported charset \(charset)")
            }
            guard let data = TextEncoding.encode(context.query("text") ?? defaultText, charset: charset) else {
                return context.badRequest("text cannot be encoded in \(charset)")
            }
            return TestResponse(
                status: 200, headers: [("Content-Type", "text/plain; charset=\(charset)")], body: .data(data))
        },
        BuiltInRoute("/bytes-raw") { context in
            guard let data = TextEncoding.hex(context.query("hex") ?? "") else {
                return context.badRequest("hex must be an even number of hexadecimal digits")
            }
            let type = context.query("type") ?? "application/octet-stream"
            return TestResponse(status: 200, headers: [("Content-Type", type)], body: .data(data))
        },
    ]
}

/// Fixed documents.
enum Documents {
    static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Ferry test server</title></head>
        <body><h1>Ferry test server</h1><p>Grüße from an in-process HTTP/1.1 server.</p></body>
        </html>

        """
}

extension TestServer {
    /// The document `/json` serves: every JSON kind, nesting, escapes, non-ASCII text, and `bigInt`
    /// 9007199254740993 (2⁵³ + 1), which a `Double` cannot hold exactly.
    public static let sampleJSON = #"""
        {"string":"Ferry","int":42,"negative":-7,"double":3.25,"bool":true,"false":false,"null":null,\#
        "bigInt":9007199254740993,"array":[1,"two",3.5,false,null],\#
        "nested":{"name":"inner","values":[1,2,3],"deep":{"ok":true}},\#
        "unicode":"café ☕","escaped":"line\nbreak \"quoted\" \\ /"}
        """#
}
