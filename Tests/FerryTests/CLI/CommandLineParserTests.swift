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
            [":1/x", "-vF", "-XPATCH", "--output=f.bin", "--timeout", "1.5", "-p", "hb", "q==1"])
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

    @Test("--raw reads text, a file or standard input; --multipart with items; -H makes a header item")
    func bodies() throws {
        #expect(try CommandLineParser.parse(["--raw", "hi", "u"]).rawBody == .text("hi"))
        #expect(try CommandLineParser.parse(["--raw", "@body.json", "u"]).rawBody == .file("body.json"))
        #expect(try CommandLineParser.parse(["--raw=@-", "u"]).rawBody == .standardInput)
        let form = try CommandLineParser.parse(["--multipart", "u", "photo@cat.jpg", "-H", "X-A: 1"])
        #expect(form.isMultipart)
        #expect(form.items == [.header(name: "X-A", value: " 1"), .file(name: "photo", path: "cat.jpg")])
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
            (["--raw", "x", "u", "a=1"], "cannot be combined"),
            (["-f", "u", "n:=1"], "cannot be sent as a form"),
            (["--multipart", "u", "n:=1"], "cannot be sent as a form"),
            (["-j", "-f", "u"], "-j/--json and -f/--form"),
            (["--continue", "u"], "needs -o FILE"),
            (["-c", "-d", "u"], "needs -o FILE"),
            (["-S", "-o", "f", "u"], "cannot be combined with -d or -o"),
            (["-S", "-d", "u"], "cannot be combined with -d or -o"),
            (["-A", "digest", "-a", "x", "u"], "-A/--auth-type takes basic or bearer"),
            (["-A", "bearer", "u"], "-A bearer needs the token"),
            (["--completions", "tcsh"], "--completions takes bash, zsh or fish"),
            (["--session=", "u"], "--session takes a name or a path"),
            (["-p", "x", "u"], "m (metadata)"),
            (["demo", "-v"], "ferry demo takes only --help"),
            (["-h"], "-h is --headers, as in httpie; help is --help"),
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

    @Test("demo, demo --help, --help, --version and --completions need no URL")
    func commands() throws {
        #expect(try CommandLineParser.parse(["demo"]).isDemo)
        let demoHelp = try CommandLineParser.parse(["demo", "--help"])
        #expect(demoHelp.isDemo && demoHelp.showsHelp)
        #expect(try CommandLineParser.parse(["--help"]).showsHelp)
        #expect(try CommandLineParser.parse(["--version"]).showsVersion)
        #expect(try CommandLineParser.parse(["--completions", "fish"]).completions == .fish)
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["demo", "x"]) }
    }

    @Test("httpie's flags with httpie's meanings")
    func httpieFlags() throws {
        let options = try CommandLineParser.parse(["-d", "-F", "-j", "-q", "--offline", "--check-status", "u"])
        #expect(options.downloads && options.savesToFile)
        #expect(options.follows)
        #expect(options.isJSON)
        #expect(options.isQuiet)
        #expect(options.isOffline)
        #expect(options.checksStatus)
        #expect(options.output == nil)
        let h = PrintSelection(requestHeaders: false, requestBody: false, responseHeaders: true, responseBody: false)
        #expect(try CommandLineParser.parse(["-h", "u"]).print == h)
        let b = PrintSelection(requestHeaders: false, requestBody: false, responseHeaders: false, responseBody: true)
        #expect(try CommandLineParser.parse(["-b", "u"]).print == b)
        #expect(try CommandLineParser.parse(["-m", "u"]).print?.metadata == true)
        #expect(try CommandLineParser.parse(["--print=HBhbm", "u"]).print?.metadata == true)
        let auth = try CommandLineParser.parse(["-A", "bearer", "-a", "T0K", "u"])
        #expect(auth.auth == "T0K" && auth.authType == .bearer)
        #expect(try CommandLineParser.parse(["-a", "ada:pw", "u"]).authType == .basic)
        #expect(try CommandLineParser.parse(["--session", "work", "u"]).session == "work")
        let readOnly = try CommandLineParser.parse(["--session-read-only", "work", "-I", "u"])
        #expect(readOnly.session == "work" && readOnly.sessionIsReadOnly)
        let redirects = try CommandLineParser.parse(["--max-redirects", "2", "u"])
        #expect(redirects.follows && redirects.maxRedirects == 2)
        #expect(try CommandLineParser.parse(["-d", "-o", "f", "-c", "u"]).continues)
    }

    @Test("the old curl-style meanings are gone: -L, --data and --field are unknown, --json takes no value")
    func removedFlags() {
        for arguments in [["-L", "u"], ["--data", "x", "u"], ["--field", "a=1", "u"], ["--json=x", "u"]] {
            #expect(throws: UsageError.self) { try CommandLineParser.parse(arguments) }
        }
    }
}
