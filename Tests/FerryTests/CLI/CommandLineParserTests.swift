import Testing

@testable import FerryCLI

@Suite("ferry: command line")
struct CommandLineParserTests {
    @Test("a leading method is recognised only when more positionals follow")
    func method() throws {
        #expect(try CommandLineParser.parse(["localhost"]).url == "localhost")
        #expect(try CommandLineParser.parse(["localhost"]).method == nil)
        let put = try CommandLineParser.parse(["put", ":8080/x", "a=1"])
        #expect(put.method == "PUT")
        #expect(put.url == ":8080/x")
        #expect(put.items == [.field(name: "a", value: "1")])
        #expect(try CommandLineParser.parse(["PURGE", "example.com"]).method == "PURGE")
        // A lowercase word that is no known method is the URL.
        let host = try CommandLineParser.parse(["localhost", "a==1"])
        #expect(host.url == "localhost")
        #expect(host.method == nil)
    }

    @Test("options go anywhere; values attached, after =, or next; flags combine")
    func optionForms() throws {
        let options = try CommandLineParser.parse(
            [":1/x", "-vL", "-XPATCH", "--output=f.bin", "--timeout", "1.5", "-p", "hb", "q==1"])
        #expect(options.isVerbose)
        #expect(options.follows)
        #expect(options.method == "PATCH")
        #expect(options.output == "f.bin")
        #expect(options.idleTimeout == 1.5)
        #expect(
            options.print
                == PrintSelection(requestHeaders: false, requestBody: false, responseHeaders: true, responseBody: true))
        #expect(options.items == [.query(name: "q", value: "1")])
    }

    @Test("-d reads text, a file or standard input; -F makes multipart; -H makes a header item")
    func bodies() throws {
        #expect(try CommandLineParser.parse(["-d", "hi", "u"]).rawBody == .text("hi"))
        #expect(try CommandLineParser.parse(["-d", "@body.json", "u"]).rawBody == .file("body.json"))
        #expect(try CommandLineParser.parse(["-d", "@-", "u"]).rawBody == .standardInput)
        let form = try CommandLineParser.parse(["-F", "photo@cat.jpg", "-H", "X-A: 1", "u"])
        #expect(form.isMultipart)
        #expect(form.items == [.file(name: "photo", path: "cat.jpg"), .header(name: "X-A", value: " 1")])
    }

    @Test("-- ends the options")
    func doubleDash() throws {
        let options = try CommandLineParser.parse(["u", "--", "-weird=1"])
        #expect(options.items == [.field(name: "-weird", value: "1")])
    }

    @Test(
        "mistakes are usage errors that say what is wrong",
        arguments: [
            ([String](), "no URL given"),
            (["--folow", "u"], "did you mean --follow?"),
            (["-Z", "u"], "unknown option -Z"),
            (["u", "-o"], "-o/--output needs a value"),
            (["--timeout", "soon", "u"], "--timeout takes a positive number"),
            (["--max-redirects", "-1", "u"], "--max-redirects takes a whole number"),
            (["-p", "hx", "u"], "--print takes H"),
            (["u", "example.com/other"], "looks like a second URL"),
            (["-d", "x", "u", "a=1"], "cannot be combined"),
            (["-f", "u", "n:=1"], "cannot be sent as a form"),
            (["--continue", "u"], "needs -o FILE"),
            (["-S", "-o", "f", "u"], "cannot be combined with -o"),
            (["-X", "PUT", "POST", "u"], "two methods given"),
            (["--stream=yes", "u"], "--stream takes no value"),
        ])
    func usageErrors(arguments: [String], message: String) {
        #expect {
            try CommandLineParser.parse(arguments)
        } throws: { error in
            (error as? UsageError)?.description.contains(message) == true
        }
    }

    @Test("demo, --help and --version need no URL")
    func commands() throws {
        #expect(try CommandLineParser.parse(["demo"]).isDemo)
        #expect(try CommandLineParser.parse(["--help"]).showsHelp)
        #expect(try CommandLineParser.parse(["-h"]).showsHelp)
        #expect(try CommandLineParser.parse(["--version"]).showsVersion)
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["demo", "x"]) }
    }
}
