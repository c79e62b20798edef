import Ferry
import Foundation
import Testing

@testable import FerryCLI

@Suite("ferry: the request a command line describes")
struct RequestPlanTests {
    private func plan(_ arguments: [String], stdin: Data = Data()) throws -> RequestPlan {
        try RequestPlan(options: try CommandLineParser.parse(arguments), readStandardInput: { stdin })
    }

    @Test(
        "URL shorthands",
        arguments: [
            (":8080/x", "http://localhost:8080/x"),
            (":/x", "http://localhost/x"),
            ("localhost:8080/x", "http://localhost:8080/x"),
            ("example.com", "http://example.com"),
            ("127.0.0.1:9/a?b=c", "http://127.0.0.1:9/a?b=c"),
            ("https://example.com/", "https://example.com/"),
        ])
    func shorthand(typed: String, expected: String) throws {
        #expect(try URLShorthand.expand(typed).absoluteString == expected)
    }

    @Test("URLs that are not http or https are refused")
    func badURLs() {
        #expect(throws: UsageError.self) { try URLShorthand.expand("ftp://example.com/") }
        #expect(throws: UsageError.self) { try URLShorthand.expand("http://") }
    }

    @Test("fields make a JSON object in the order typed, and POST")
    func jsonBody() throws {
        let plan = try plan([":1/users", "name=Ada", "age:=36", "admin:=true", "tags:=[\"x\"]", "q==1", "X-A:1"])
        #expect(plan.method == .post)
        #expect(plan.body == .json(Data(#"{"name":"Ada","age":36,"admin":true,"tags":["x"]}"#.utf8)))
        #expect(plan.url.absoluteString == "http://localhost:1/users?q=1")
        #expect(plan.headers["X-A"] == "1")
        #expect(plan.headers["Accept"] == "application/json, */*;q=0.5")
        #expect(plan.request().body?.contentType == "application/json")
    }

    @Test("invalid raw JSON is a usage error naming the item")
    func invalidJSON() {
        #expect {
            try plan([":1", "n:={broken"])
        } throws: { error in
            (error as? UsageError)?.description.contains("n:={broken") == true
        }
    }

    @Test("--form urlencodes; a file item makes multipart")
    func formAndMultipart() throws {
        let form = try plan(["-f", ":1", "a=1", "b=x y"])
        #expect(form.body == .form([.init(name: "a", value: "1"), .init(name: "b", value: "x y")]))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-plan-\(UUID()).txt")
        try Data("hello".utf8).writeUnsynced(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let multipart = try plan([":1", "title=cat", "photo@\(file.path)"])
        #expect(
            multipart.body == .multipart([.text(name: "title", value: "cat"), .file(name: "photo", path: file.path)]))
        #expect(multipart.request().body?.contentType?.hasPrefix("multipart/form-data; boundary=") == true)
    }

    @Test("--raw: text, standard input, a file; -j makes it JSON; a missing file is a usage error")
    func rawBodies() throws {
        #expect(
            try plan(["--raw", #"{"a":1}"#, ":1"]).body
                == .data(Data(#"{"a":1}"#.utf8), contentType: "application/json"))
        #expect(
            try plan(["--raw", "hi", ":1"]).body == .data(Data("hi".utf8), contentType: "text/plain; charset=utf-8"))
        #expect(try plan(["-j", "--raw", "hi", ":1"]).body == .data(Data("hi".utf8), contentType: "application/json"))
        #expect(
            try plan(["-f", "--raw", "a=1&b=2", ":1"]).body
                == .data(Data("a=1&b=2".utf8), contentType: "application/x-www-form-urlencoded; charset=utf-8"))
        #expect(
            try plan(["--raw", "@-", ":1"], stdin: Data([0, 1])).body
                == .data(Data([0, 1]), contentType: "application/octet-stream"))
        #expect(throws: UsageError.self) { try plan(["--raw", "@/no/such/file", ":1"]) }
    }

    @Test("an empty header item removes a default header; a method and redirects as asked")
    func headersAndPolicy() throws {
        let plan = try plan(["DELETE", ":1/x", "User-Agent:", "--max-redirects", "3", "--max-time", "2"])
        #expect(plan.headers["User-Agent"] == nil)
        #expect(plan.method == .delete)
        #expect(plan.redirectLimit == 3)
        #expect(plan.request().totalTimeout == .seconds(2))
        #expect(try self.plan([":1"]).redirectLimit == nil)
    }
}
