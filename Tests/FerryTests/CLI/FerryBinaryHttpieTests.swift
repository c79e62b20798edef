import FerryTestServer
import Foundation
import Testing

/// The built `ferry` run with each of httpie's flags, against the in-process test server.
// Serialized, like FerryBinaryTests: one `ferry` process at a time.
@Suite("ferry: httpie's flags, run as a user runs them", .serialized, .timeLimit(.minutes(2)))
struct FerryBinaryHttpieTests {
    let server: TestServer
    let directory: URL

    init() throws {
        server = try TestServer()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-httpie-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func url(_ path: String) -> String { server.url(path).absoluteString }

    private func cleanUp() {
        server.shutDownInBackground()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The `Name: value` lines of the first head in `text` that starts with `startLine`.
    private func head(in text: String, startingWith startLine: String) -> [(name: String, value: String)] {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix(startLine) }) else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(colon, offsetBy: 2)...]))
        }
    }

    @Test("-d saves to a file named by the URL and the type, never replacing one; Content-Disposition names it")
    func download() async throws {
        defer { cleanUp() }
        let first = try await FerryBinary.run(["-d", url("/json")], in: directory)
        let second = try await FerryBinary.run(["--download", url("/json")], in: directory)
        #expect(first.status == 0 && second.status == 0)
        #expect(first.out.isEmpty, "the body goes to the file, not standard output")
        #expect(first.err.contains("saved json.json: "))
        #expect(second.err.contains("saved json-1.json: "))
        let saved = try String(contentsOf: directory.appendingPathComponent("json.json"), encoding: .utf8)
        #expect(saved == TestServer.sampleJSON)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("json-1.json").path))
        #expect(server.receivedRequests.last?.header("Accept-Encoding") == "identity")

        let named = try await FerryBinary.run(
            ["-d", url("/response-headers"), "Content-Disposition==attachment; filename=\"report.txt\""],
            in: directory)
        #expect(named.status == 0)
        #expect(named.err.contains("saved report.txt: "))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasPrefix(".ferry-download")
        }
        #expect(leftovers.isEmpty)

        let missing = try await FerryBinary.run(["-d", url("/status/404")], in: directory)
        #expect(missing.status == 4, "a download fails on 4xx as with --check-status")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("404").path))

        let broken = try await FerryBinary.run(["-d", url("/range/50000?reset-at=20000")], in: directory)
        #expect(broken.status == 1)
        #expect(!broken.err.contains("--continue"), "-d alone cannot be resumed: \(broken.err)")
        let remains = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasPrefix(".ferry-download")
        }
        #expect(remains.isEmpty, "a broken -d download leaves nothing: \(remains)")

        let output = try await FerryBinary.run(["-d", "-o", "chosen.bin", url("/range/1000")], in: directory)
        #expect(output.status == 0)
        #expect(try Data(contentsOf: directory.appendingPathComponent("chosen.bin")).count == 1000)
    }

    @Test("on a terminal, -d redraws a progress bar in place; --no-color and colours on the head")
    func downloadOnTerminal() async throws {
        defer { cleanUp() }
        let run = try await FerryBinary.runWithTerminalStderr(
            ["-d", url("/drip?numbytes=200000&duration=0.8")], in: directory)
        #expect(run.status == 0)
        let redraws = run.err.components(separatedBy: "\r").filter { $0.contains("%  [") }
        #expect(redraws.count >= 3, "expected several redraws, got: \(run.err.debugDescription)")
        #expect(run.err.contains("100%  [████████████████████████]  200 kB / 200 kB"))
        #expect(run.err.contains("saved drip"))

        let coloured = try await FerryBinary.runWithTerminalStderr(["-v", url("/get")])
        #expect(coloured.err.contains("\u{1B}[1mGET\u{1B}[0m"), "the request line is coloured on a terminal")
        #expect(coloured.err.contains("\u{1B}[32m200 OK\u{1B}[0m"))
        let plain = try await FerryBinary.runWithTerminalStderr(["-v", "--no-color", url("/get")])
        #expect(!plain.err.contains("\u{1B}["))
        #expect(plain.err.contains("GET /get HTTP/1.1"))
        let quiet = try await FerryBinary.runWithTerminalStderr(["-q", "-d", url("/range/5000")], in: directory)
        #expect(quiet.status == 0)
        #expect(quiet.err.isEmpty, "-q: no bar and no summary, got \(quiet.err.debugDescription)")
    }

    @Test("-F/--follow follows; --max-redirects limits and implies it")
    func follow() async throws {
        defer { cleanUp() }
        let stopped = try await FerryBinary.run([url("/redirect/2")])
        #expect(stopped.err.hasPrefix("HTTP/1.1 302"))
        let followed = try await FerryBinary.run(["--follow", url("/redirect/2")])
        #expect(followed.err.hasPrefix("HTTP/1.1 200 OK"))
        let limited = try await FerryBinary.run(["--max-redirects", "2", url("/redirect/2")])
        #expect(limited.status == 0)
        #expect(try await FerryBinary.run(["-F", "--max-redirects", "1", url("/redirect/2")]).status == 6)
    }

    @Test("-h prints the response headers only, -b the body only, -m the metadata, -p a choice; all on stdout")
    func printShortcuts() async throws {
        defer { cleanUp() }
        let headers = try await FerryBinary.run(["-h", url("/json")])
        #expect(headers.out.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(headers.out.contains("Content-Type: application/json"))
        #expect(!headers.out.contains("\"id\""))
        #expect(headers.err.isEmpty)
        let body = try await FerryBinary.run(["--body", url("/json")])
        #expect(body.out == TestServer.sampleJSON)
        #expect(body.err.isEmpty)
        let meta = try await FerryBinary.run(["-m", url("/json")])
        #expect(meta.out.hasPrefix("Elapsed time: ") && meta.out.hasSuffix("s\n"))
        let both = try await FerryBinary.run(["-p", "Hhm", url("/json")])
        #expect(both.out.hasPrefix("GET /json HTTP/1.1\n"))
        #expect(both.out.contains("HTTP/1.1 200 OK\n"))
        #expect(both.out.contains("Elapsed time: "))
        let streamed = try await FerryBinary.run(["-S", "-p", "bm", url("/ndjson?count=1")])
        #expect(streamed.out.hasPrefix("{\"index\":0}\nElapsed time: "))
    }

    @Test("response headers print in a stable order, whatever order the transport hands them over")
    func responseHeaderOrder() async throws {
        defer { cleanUp() }
        let target = url("/response-headers?Z-Last=1&M-Middle=2&A-First=3")
        var heads: [[String]] = []
        for _ in 0..<3 {
            let run = try await FerryBinary.run(["-h", target])
            heads.append(head(in: run.out, startingWith: "HTTP/1.1").map(\.name).filter { $0 != "Date" })
        }
        #expect(heads[0] == heads[1] && heads[1] == heads[2])
        let names = heads[0]
        #expect(names == names.sorted { $0.lowercased() < $1.lowercased() })
        #expect(names.contains("A-First") && names.contains("Z-Last"))
    }

    @Test("-v shows the request exactly as the server received it: every header, with Ferry's own")
    func verboseAsSent() async throws {
        defer { cleanUp() }
        let run = try await FerryBinary.run(["-v", url("/anything"), "X-Trace:7", "user[name]=Ada", "n:=1"])
        #expect(run.status == 0)
        let shown = head(in: run.err, startingWith: "POST /anything HTTP/1.1")
        #expect(shown.first?.name == "Host")
        let received = try #require(server.receivedRequests.last)
        let shownFields = Set(shown.map { "\($0.name.lowercased()): \($0.value)" })
        let receivedFields = Set(received.headers.map { "\($0.name.lowercased()): \($0.value)" })
        #expect(shownFields == receivedFields, "shown \(shownFields.sorted()) received \(receivedFields.sorted())")
        #expect(shown.map(\.name).prefix(5) == ["Host", "User-Agent", "Accept", "Accept-Encoding", "X-Trace"])
        #expect(run.err.contains("\n\n" + #"{"user":{"name":"Ada"},"n":1}"#))
        #expect(String(decoding: received.body, as: UTF8.self) == #"{"user":{"name":"Ada"},"n":1}"#)

        let download = try await FerryBinary.run(["-v", "-d", url("/range/10")], in: directory)
        let downloadShown = head(in: download.err, startingWith: "GET /range/10 HTTP/1.1")
        let downloadReceived = try #require(server.receivedRequests.last)
        #expect(
            Set(downloadShown.map { "\($0.name.lowercased()): \($0.value)" })
                == Set(downloadReceived.headers.map { "\($0.name.lowercased()): \($0.value)" }))
    }

    @Test("-j asks for JSON; --raw sends a body as it is; -f a form; --multipart fields as parts")
    func bodies() async throws {
        defer { cleanUp() }
        _ = try await FerryBinary.run(["-j", url("/get")])
        #expect(server.receivedRequests.last?.header("Accept") == "application/json, */*;q=0.5")
        _ = try await FerryBinary.run([url("/post"), "--raw", #"{"a":[1]}"#])
        #expect(server.receivedRequests.last?.body == Data(#"{"a":[1]}"#.utf8))
        #expect(server.receivedRequests.last?.header("Content-Type") == "application/json")
        _ = try await FerryBinary.run(["-j", url("/post"), "--raw", "not json"])
        #expect(server.receivedRequests.last?.header("Content-Type") == "application/json")
        _ = try await FerryBinary.run(["--form", url("/post"), "a=1", "b=x y"])
        #expect(server.receivedRequests.last?.body == Data("a=1&b=x%20y".utf8))
        _ = try await FerryBinary.run(["--multipart", url("/post"), "a=1"])
        let parts = try #require(server.receivedRequests.last)
        #expect(parts.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(String(decoding: parts.body, as: UTF8.self).contains("name=\"a\"\r\n\r\n1\r\n"))
        let conflict = try await FerryBinary.run([url("/post"), "a[b]=1", "a[0]=2"])
        #expect(conflict.status == 2)
        #expect(conflict.err.contains(#""a" is an object and cannot be used as an array"#))
        let mixed = try await FerryBinary.run(["-j", "-f", url("/post")])
        #expect(mixed.status == 2)
    }

    @Test("-a USER:PASS is Basic, -A bearer -a TOKEN is Bearer; -a USER with no terminal is a usage error")
    func auth() async throws {
        defer { cleanUp() }
        let basic = try await FerryBinary.run(["--check-status", "-a", "ada:pw", url("/basic-auth/ada/pw")])
        #expect(basic.status == 0)
        #expect(basic.out.contains("\"authenticated\":true") || basic.out.contains("\"authenticated\": true"))
        let wrong = try await FerryBinary.run(["--check-status", "-a", "ada:no", url("/basic-auth/ada/pw")])
        #expect(wrong.status == 4)
        let bearer = try await FerryBinary.run(["--check-status", "-A", "bearer", "-a", "t0k", url("/bearer")])
        #expect(bearer.status == 0)
        #expect(server.receivedRequests.last?.header("Authorization") == "Bearer t0k")
        let before = server.requestCount
        let noPassword = try await FerryBinary.run(["-a", "ada", url("/basic-auth/ada/pw")])
        #expect(noPassword.status == 2)
        #expect(noPassword.err.contains("use -a ada:PASSWORD"))
        #expect(server.requestCount == before)
    }

    @Test("ferry's extras beside httpie's flags: -H, -X, --max-time with its hint, --timeline")
    func extras() async throws {
        defer { cleanUp() }
        _ = try await FerryBinary.run(["-X", "PATCH", "-H", "X-A: 1", url("/anything")])
        let received = try #require(server.receivedRequests.last)
        #expect(received.method == "PATCH")
        #expect(received.header("X-A") == "1")
        let slow = try await FerryBinary.run(["--max-time", "0.3", url("/delay/5")])
        #expect(slow.status == 2)
        #expect(slow.err.contains("raise --max-time (it is 0.3 s)"), "\(slow.err)")
        let timeline = try await FerryBinary.run(["--timeline", url("/get")])
        #expect(timeline.err.contains("waiting") && timeline.err.contains("receiving"))
    }

    @Test("-a USER on a terminal asks for the password without echoing it")
    func passwordPrompt() async throws {
        defer { cleanUp() }
        let run = try await FerryBinary.runAnsweringOnTerminal(
            ["--check-status", "-a", "ada", url("/basic-auth/ada/s3cret")], prompt: "password for ada: ",
            reply: "s3cret")
        #expect(run.status == 0, "terminal: \(run.err.debugDescription)")
        #expect(run.err.contains("password for ada: "))
        #expect(!run.err.contains("s3cret"), "the password is not echoed")
        #expect(
            server.receivedRequests.last?.header("Authorization") == "Basic "
                + Data("ada:s3cret".utf8).base64EncodedString())
    }

    @Test("--offline prints the request as it would be sent and sends nothing")
    func offline() async throws {
        defer { cleanUp() }
        let before = server.requestCount
        let run = try await FerryBinary.run(["--offline", "-a", "u:p", url("/post"), "a[b]:=1", "X-A:1"])
        #expect(run.status == 0)
        #expect(server.requestCount == before)
        #expect(run.out.hasPrefix("POST /post HTTP/1.1\nHost: 127.0.0.1:\(server.port)\n"))
        #expect(run.out.contains("Authorization: Basic dTpw\n"))
        #expect(run.out.contains("Content-Type: application/json\n"))
        #expect(run.out.contains("Content-Length: 13\n"))
        #expect(run.out.hasSuffix("\n\n" + #"{"a":{"b":1}}"# + "\n"))
        let headersOnly = try await FerryBinary.run(["--offline", "-p", "H", url("/get")])
        #expect(headersOnly.out.hasPrefix("GET /get HTTP/1.1\n") && headersOnly.out.hasSuffix("\n\n"))
    }

    @Test("--session NAME keeps headers, auth and cookies per host under XDG_CONFIG_HOME; a PATH works too")
    func session() async throws {
        defer { cleanUp() }
        let environment = ["XDG_CONFIG_HOME": directory.appendingPathComponent("config").path]
        let first = try await FerryBinary.run(
            ["--session", "work", "-a", "ada:pw", url("/cookies/set?k=v"), "X-Keep:1"], environment: environment)
        #expect(first.status == 0)
        let file = directory.appendingPathComponent("config/ferry/sessions/127.0.0.1_\(server.port)/work.json")
        let stored = try String(contentsOf: file, encoding: .utf8)
        #expect(stored.contains("\"X-Keep\""))
        #expect(!stored.contains("\"User-Agent\""), "ferry's defaults are not kept")

        let second = try await FerryBinary.run(["--session", "work", url("/cookies")], environment: environment)
        #expect(second.status == 0)
        let received = try #require(server.receivedRequests.last)
        #expect(received.header("Cookie") == "k=v")
        #expect(received.header("X-Keep") == "1")
        #expect(received.header("Authorization") == "Basic " + Data("ada:pw".utf8).base64EncodedString())

        let readOnly = try await FerryBinary.run(
            ["--session-read-only", "work", url("/cookies/set?k=changed"), "X-Keep:2"], environment: environment)
        #expect(readOnly.status == 0)
        #expect(try String(contentsOf: file, encoding: .utf8) == stored, "--session-read-only writes nothing")
        #expect(server.receivedRequests.last?.header("Cookie") == "k=v", "but sends the session")

        let path = directory.appendingPathComponent("s.json").path
        _ = try await FerryBinary.run(["--session", path, url("/get"), "X-Other:2"])
        _ = try await FerryBinary.run(["--session", path, url("/get")])
        #expect(server.receivedRequests.last?.header("X-Other") == "2")
        let broken = directory.appendingPathComponent("broken.json")
        try Data("not json".utf8).writeUnsynced(to: broken)
        let unusable = try await FerryBinary.run(["--session", broken.path, url("/get")])
        #expect(unusable.status == 2)
        #expect(unusable.err.contains("is not a session file"))
    }

    @Test("--version, --help and ferry demo --help")
    func helpAndVersion() async throws {
        defer { cleanUp() }
        let version = try await FerryBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.out.hasPrefix("ferry ") && version.out.hasSuffix("\n"))
        let help = try await FerryBinary.run(["--help"])
        #expect(help.status == 0)
        for flag in ["-d, --download", "-F, --follow", "-h, --headers", "-j, --json", "--raw", "-A, --auth-type"] {
            #expect(help.out.contains(flag), "\(flag)")
        }
        #expect(help.out.contains("6   too many redirects"))
        let demo = try await FerryBinary.run(["demo", "--help"])
        #expect(demo.status == 0)
        #expect(demo.out.hasPrefix("usage: ferry demo"))
        #expect(!demo.out.contains("Demo finished"), "help, not the demo")
        let wrong = try await FerryBinary.run(["demo", "extra"])
        #expect(wrong.status == 2)
        #expect(wrong.err.contains("ferry demo takes only --help"))
    }

    @Test("--completions prints a script each shell accepts", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) async throws {
        defer { cleanUp() }
        let run = try await FerryBinary.run(["--completions", shell])
        #expect(run.status == 0)
        #expect(run.out.contains("download") && run.out.contains("bearer") && run.out.contains("demo"))
        let script = directory.appendingPathComponent("ferry.\(shell)")
        try run.stdout.writeUnsynced(to: script)
        guard let path = ["/usr/bin/\(shell)", "/bin/\(shell)"].first(where: FileManager.default.isExecutableFile)
        else {
            // The shell is not installed: the script's shape is all that can be checked.
            let marker = [
                "bash": "complete -o default -F _ferry ferry", "zsh": "#compdef ferry", "fish": "complete -c ferry",
            ]
            #expect(run.out.contains(marker[shell] ?? "?"))
            return
        }
        let syntax = try await FerryBinary.runTool(path, ["-n", script.path])
        #expect(syntax.status == 0, "\(shell) -n: \(syntax.err)")
        // Loaded into the shell, the script completes a flag, an option's values and the subcommand.
        let probes: [String: String] = [
            "bash": """
            source \(script.path)
            COMP_WORDS=(ferry --dow); COMP_CWORD=1; _ferry; echo "${COMPREPLY[@]}"
            COMP_WORDS=(ferry -A ''); COMP_CWORD=2; _ferry; echo "${COMPREPLY[@]}"
            COMP_WORDS=(ferry de); COMP_CWORD=1; _ferry; echo "${COMPREPLY[@]}"
            """,
            "zsh": "autoload -U compinit && compinit -u && source \(script.path) && echo ${_comps[ferry]}",
            "fish": "source \(script.path); complete -C'ferry --dow'; complete -C'ferry -A '; complete -C'ferry de'",
        ]
        let probe = try await FerryBinary.runTool(path, ["-c", probes[shell] ?? ""])
        #expect(probe.status == 0, "\(shell): \(probe.err)")
        if shell == "zsh" {
            #expect(probe.out.contains("_ferry"), "compdef registered _ferry: \(probe.out)")
        } else {
            #expect(probe.out.contains("--download"), "\(probe.out)")
            #expect(probe.out.contains("basic") && probe.out.contains("bearer"), "\(probe.out)")
            #expect(probe.out.contains("demo"), "\(probe.out)")
        }
    }
}
