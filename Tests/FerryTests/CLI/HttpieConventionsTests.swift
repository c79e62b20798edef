import Ferry
import Foundation
import Testing

@testable import FerryCLI

@Suite("ferry: httpie's conventions, unit by unit")
struct HttpieConventionsTests {
    private func body(_ items: [String]) throws -> String {
        let plan = try RequestPlan(options: try CommandLineParser.parse([":1/x"] + items))
        guard case .json(let data) = plan.body else { return "not JSON: \(plan.body)" }
        return String(decoding: data, as: UTF8.self)
    }

    @Test(
        "nested JSON items build objects and arrays in the order typed",
        arguments: [
            (["user[name]=Ada", "user[tags][]=a", "user[tags][]=b"], #"{"user":{"name":"Ada","tags":["a","b"]}}"#),
            (["list[0]=x", "list[2]=z"], #"{"list":["x",null,"z"]}"#),
            (["a[b][c]:=1", "a[b][d]:=true", "z=1"], #"{"a":{"b":{"c":1,"d":true}},"z":"1"}"#),
            (["[]=x", "[]:=2"], #"["x",2]"#),
            (["a[]:=1", "a[]:=2", "n[x][]=t"], #"{"a":[1,2],"n":{"x":["t"]}}"#),
            (["a=1", "a=2"], #"{"a":"2"}"#),
            (["p[0][name]=x", "p[0][n]:=1"], #"{"p":[{"name":"x","n":1}]}"#),
            (["b=1", "a=2"], #"{"b":"1","a":"2"}"#),
            ([#"a\[b\]=1"#, #"c[d\]e]=2"#, #"a\\[x]=1"#], #"{"a[b]":"1","c":{"d]e":"2"},"a\\":{"x":"1"}}"#),
        ])
    func nested(items: [String], expected: String) throws {
        #expect(try body(items) == expected)
    }

    @Test(
        "conflicting or malformed paths are usage errors that say where",
        arguments: [
            (["a[b]=1", "a[0]=2"], #""a" is an object and cannot be used as an array"#),
            (["a=x", "a[b]=1"], #""a" is a string and cannot be used as an object"#),
            (["a[]=x", "a[k]=1"], #""a" is an array and cannot be used as an object"#),
            (["a[b]=1", "a[b][c]=2"], #""a[b]" is a string"#),
            (["[]=x", "k=1"], "the body is an array and cannot be used as an object"),
            (["a[x=1"], #"a "[" without its "]""#),
            (["a[x]y=1"], #"expected "[" after "]""#),
        ])
    func conflicts(items: [String], message: String) {
        #expect {
            try body(items)
        } throws: { error in
            (error as? UsageError)?.description.contains(message) == true
        }
    }

    @Test("escaped brackets are plain characters in form and multipart names")
    func literalNames() throws {
        let form = try RequestPlan(options: try CommandLineParser.parse(["-f", ":1", #"a\[b\]=1"#, #"c\\=2"#]))
        #expect(form.body == .form([.init(name: "a[b]", value: "1"), .init(name: #"c\"#, value: "2")]))
        #expect(RequestItem.literalName(#"x\[0\]\\y\z"#) == #"x[0]\y\z"#)
    }

    @Test("-a: Basic from USER:PASS through AuthenticationCredential, Bearer with -A bearer; no password, no terminal")
    func auth() throws {
        let basic = try RequestPlan(options: try CommandLineParser.parse(["-a", "ada:s3cr:et", ":1"]))
        let expected = try AuthenticationCredential.basic(username: "ada", password: "s3cr:et").authorization
        #expect(basic.headers["Authorization"] == expected)
        #expect(expected == "Basic " + Data("ada:s3cr:et".utf8).base64EncodedString())
        let bearer = try RequestPlan(options: try CommandLineParser.parse(["-A", "bearer", "-a", "tok", ":1"]))
        #expect(bearer.headers["Authorization"] == "Bearer tok")
        let asked = try RequestPlan(
            options: try CommandLineParser.parse(["-a", "ada", ":1"]), password: { $0 == "ada" ? "typed" : nil })
        #expect(asked.headers["Authorization"] == "Basic " + Data("ada:typed".utf8).base64EncodedString())
        #expect {
            try RequestPlan(options: try CommandLineParser.parse(["-a", "ada", ":1"]))
        } throws: { error in
            (error as? UsageError)?.description.contains("no terminal to ask for it; use -a ada:PASSWORD") == true
        }
        #expect(throws: UsageError.self) {
            try RequestPlan(options: try CommandLineParser.parse(["-a", "a\u{1}b:c", ":1"]))
        }
    }

    @Test("-v's headers: Host first, the plan's in order, then what Ferry and the transport add")
    func headersAsSent() throws {
        let plan = try RequestPlan(options: try CommandLineParser.parse([":1/x", "X-B:2", "a=1", "X-A:1"]))
        let cookie = Cookie(name: "k", value: "v", domain: "localhost")
        let names = plan.headersAsSent(plan.request().body, cookies: [cookie]).map(\.name)
        var expected = ["Host", "User-Agent", "Accept", "Accept-Encoding", "X-B", "X-A", "Content-Type", "Cookie"]
        #if canImport(FoundationNetworking) && !AsyncHTTPClient  // with the trait, ferry runs on AsyncHTTPClient
        expected += ["Connection", "Accept-Language"]
        #endif
        expected.append("Content-Length")
        #expect(names == expected)
        let download = try RequestPlan(options: try CommandLineParser.parse(["-d", ":1/f"]))
        #expect(download.headersAsSent(nil, download: true)["Accept-Encoding"] == "identity")
    }

    @Test("the request line keeps the target's percent-encoding, as sent")
    func requestTarget() throws {
        let plan = try RequestPlan(options: try CommandLineParser.parse([":1/a%20b/c%2Fd", "q==x y"]))
        let stream = Console.Stream(handle: .nullDevice, isTerminal: false, usesColor: false)
        let head = HeadFormatter.request(plan, headers: [:], on: stream)
        #expect(head.hasPrefix("GET /a%20b/c%2Fd?q=x%20y HTTP/1.1\n"))
    }

    @Test("response headers print in a stable order: by name, repeated fields as given")
    func stableOrder() {
        var headers = HTTPHeaders()
        for (name, value) in [("Z-Last", "1"), ("set-cookie", "b=2"), ("A-First", "2"), ("Set-Cookie", "a=1")] {
            headers.add(name: name, value: value)
        }
        let ordered = HeadFormatter.stableOrder(headers).map { "\($0.name): \($0.value)" }
        #expect(ordered == ["A-First: 2", "set-cookie: b=2", "Set-Cookie: a=1", "Z-Last: 1"])
    }

    @Test("a session NAME lives under XDG_CONFIG_HOME (or ~/.config) per host and port; a path is itself")
    func sessionLocation() {
        let url = URL(string: "http://127.0.0.1:8080/x")!
        #expect(
            SessionFile.location(for: "work", url: url, environment: ["XDG_CONFIG_HOME": "/cfg"]).path
                == "/cfg/ferry/sessions/127.0.0.1_8080/work.json")
        #expect(
            SessionFile.location(for: "w", url: URL(string: "https://example.com/")!, environment: ["HOME": "/h"]).path
                == "/h/.config/ferry/sessions/example.com_443/w.json")
        #expect(SessionFile.location(for: "./s.json", url: url, environment: [:]).lastPathComponent == "s.json")
        #expect(!SessionFile.keeps("Content-Type") && !SessionFile.keeps("If-None-Match"))
        #expect(SessionFile.keeps("Authorization"))
    }

    @Test("-d names the file from Content-Disposition, else the URL, with an extension from the type")
    func downloadName() throws {
        func head(_ url: String, _ headers: HTTPHeaders) -> HTTPResponse {
            HTTPResponse(statusCode: 200, headers: headers, url: URL(string: url)!)
        }
        #expect(
            DownloadName.suggested(for: head("http://h/a/report", ["Content-Type": "application/json"]))
                == "report.json")
        #expect(DownloadName.suggested(for: head("http://h/f.tar.gz", [:])) == "f.tar.gz")
        #expect(DownloadName.suggested(for: head("http://h/", ["Content-Type": "text/html"])) == "index.html")
        #expect(
            DownloadName.suggested(
                for: head("http://h/x", ["Content-Disposition": #"attachment; filename="../../etc/passwd""#]))
                == "passwd")
        #expect(
            DownloadName.suggested(
                for: head("http://h/x", ["Content-Disposition": "attachment; filename*=UTF-8''%C3%A9t%C3%A9.txt"]))
                == "été.txt")
        #expect(DownloadName.suggested(for: head("http://h/.hidden", [:])) == "hidden")
    }

    @Test("--help lists every option, with its short name where it has one")
    func helpListsEveryOption() {
        for spec in OptionSpec.all {
            let listed = spec.short.map { "-\($0), --\(spec.long)" } ?? "--\(spec.long)"
            #expect(Usage.text.contains(listed), "\(listed) is missing from --help")
        }
    }

    @Test(
        "completion scripts name every flag and the demo subcommand", arguments: CompletionScript.Shell.allCases)
    func completions(shell: CompletionScript.Shell) {
        let script = CompletionScript.script(for: shell)
        for spec in OptionSpec.all { #expect(script.contains("--\(spec.long)") || script.contains("-l \(spec.long)")) }
        #expect(script.contains("demo"))
        #expect(script.contains("bearer"))
    }
}
