import FerryTestServer
import Foundation
import Testing

/// The built `ferry` run as a user runs it, against the in-process test server.
// Serialized: one `ferry` process at a time, so that the suite does not crowd the timing tests running beside it.
@Suite("ferry: the binary against a live server", .serialized, .timeLimit(.minutes(2)))
struct FerryBinaryTests {
    let server: TestServer
    let directory: URL

    init() throws {
        server = try TestServer()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func url(_ path: String) -> String { server.url(path).absoluteString }

    @Test("piped, standard output gets the body alone; the head goes to standard error")
    func bodyAlone() async throws {
        defer { server.shutDownInBackground() }
        let run = try await FerryBinary.run([url("/json")])
        #expect(run.status == 0)
        #expect(run.out == TestServer.sampleJSON)
        #expect(run.err.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(run.err.contains("Content-Type: application/json"))
        #expect(!run.err.contains("\u{1B}["))  // no colours off a terminal
    }

    @Test("--print chooses the parts, all on standard output; -q leaves standard error empty")
    func printSelection() async throws {
        defer { server.shutDownInBackground() }
        let run = try await FerryBinary.run(["-p", "Hh", url("/get"), "X-Trace:7"])
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("GET /get HTTP/1.1\n"))
        #expect(run.out.contains("X-Trace: 7\n"))
        #expect(run.out.contains("HTTP/1.1 200 OK\n"))
        #expect(!run.out.contains("\"url\""))
        #expect(run.err.isEmpty)
        let quiet = try await FerryBinary.run(["-q", url("/get")])
        #expect(quiet.err.isEmpty)
        #expect(quiet.out.contains("\"url\""))
    }

    @Test("request items reach the server: JSON fields, query, headers")
    func items() async throws {
        defer { server.shutDownInBackground() }
        let run = try await FerryBinary.run(["-v", url("/anything"), "name=Ada", "age:=36", "q==a b", "X-Trace:7"])
        #expect(run.status == 0)
        let received = try #require(server.receivedRequests.last)
        #expect(received.method == "POST")
        #expect(received.query("q") == "a b")
        #expect(received.header("X-Trace") == "7")
        #expect(received.header("Content-Type") == "application/json")
        #expect(String(decoding: received.body, as: UTF8.self) == #"{"name":"Ada","age":36}"#)
        #expect(run.err.contains("POST /anything?q=a%20b HTTP/1.1"))  // -v shows the request, on standard error
    }

    @Test("--cache DIR: a second run answers from the disk cache without the server; max-age=0 revalidates")
    func cache() async throws {
        defer {
            server.shutDownInBackground()
            try? FileManager.default.removeItem(at: directory)
        }
        let cache = directory.appendingPathComponent("cache").path
        let first = try await FerryBinary.run(["--cache", cache, url("/cache?etag=v1&max-age=600")])
        let second = try await FerryBinary.run(["--cache", cache, url("/cache?etag=v1&max-age=600")])
        #expect(first.status == 0 && second.status == 0)
        #expect(first.err.contains(", from the server"))
        #expect(second.err.contains(", from the cache"))
        #expect(second.out == first.out, "the stored body, printed as the first run printed it")
        #expect(second.err.contains("Age: "), "a hit says how old it is")
        #expect(server.receivedRequests.filter { $0.path == "/cache" }.count == 1)

        _ = try await FerryBinary.run(["--cache", cache, url("/cache?etag=v2&max-age=0")])
        let revalidated = try await FerryBinary.run(["--cache", cache, url("/cache?etag=v2&max-age=0")])
        #expect(revalidated.err.contains(", from the cache (revalidated)"))
        #expect(server.receivedRequests.last?.header("If-None-Match") == "\"v2\"")

        let unusable = try await FerryBinary.run(["--cache", "/dev/null/cache", url("/get")])
        #expect(unusable.status == 2, "a directory that cannot be made is a usage error")
        #expect(unusable.err.contains("--cache /dev/null/cache"))
    }

    @Test("--form, --multipart file uploads, --raw @file and --raw @- send their bodies")
    func bodies() async throws {
        defer { server.shutDownInBackground() }
        _ = try await FerryBinary.run(["-f", url("/post"), "user=ada", "note=a&b"])
        let form = try #require(server.receivedRequests.last)
        #expect(form.header("Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true)
        #expect(String(decoding: form.body, as: UTF8.self) == "user=ada&note=a%26b")

        let file = directory.appendingPathComponent("note.txt")
        try Data("file contents".utf8).writeUnsynced(to: file)
        _ = try await FerryBinary.run(["--multipart", url("/post"), "title=cat", "note@\(file.path)"])
        let multipart = try #require(server.receivedRequests.last)
        #expect(multipart.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
        let text = String(decoding: multipart.body, as: UTF8.self)
        #expect(text.contains(#"name="note"; filename="note.txt""#))
        #expect(text.contains("file contents"))

        _ = try await FerryBinary.run(["PUT", url("/put"), "--raw", "@\(file.path)"])
        #expect(server.receivedRequests.last?.body == Data("file contents".utf8))
        _ = try await FerryBinary.run([url("/post"), "--raw", "@-"], stdin: Data("from stdin".utf8))
        #expect(server.receivedRequests.last?.body == Data("from stdin".utf8))
    }

    @Test("exit statuses as httpie's: usage 2, refused 1, timeout 2, redirects 6; --check-status 3, 4, 5")
    func exitStatuses() async throws {
        defer { server.shutDownInBackground() }
        let usage = try await FerryBinary.run(["--nope", url("/get")])
        #expect(usage.status == 2)
        #expect(usage.out.isEmpty)
        #expect(usage.err.contains("unknown option --nope"))
        #expect(usage.err.contains("usage: ferry"))

        let refused = try await FerryBinary.run(["http://127.0.0.1:1/"])
        #expect(refused.status == 1)
        #expect(refused.err.contains("could not connect to 127.0.0.1:1"))
        #expect(refused.err.contains("check the URL's host and port"))

        let slow = try await FerryBinary.run(["--timeout", "0.3", url("/delay/5")])
        #expect(slow.status == 2)
        #expect(slow.err.contains("idle timeout"))
        #expect(slow.err.contains("raise --timeout (it is 0.3 s)"))
        #expect(!slow.err.contains("idleTimeout"), "no library advice: \(slow.err)")

        let loop = try await FerryBinary.run(["--max-redirects", "1", url("/redirect/3")])
        #expect(loop.status == 6)
        #expect(loop.err.contains("--max-redirects N (it is 1)"))
        #expect(!loop.err.contains("RedirectPolicy"), "no library advice: \(loop.err)")
        #expect(try await FerryBinary.run([url("/status/404")]).status == 0)
        #expect(try await FerryBinary.run(["--check-status", url("/redirect/1")]).status == 3)
        #expect(try await FerryBinary.run(["--check-status", "-F", url("/redirect/1")]).status == 0)
        let missing = try await FerryBinary.run(["--check-status", url("/status/404")])
        #expect(missing.status == 4)
        #expect(missing.err.contains("the server answered 404 Not Found"))
        #expect(try await FerryBinary.run(["--check-status", url("/status/503")]).status == 5)
    }

    @Test("redirects are answers unless -F/--follow")
    func follow() async throws {
        defer { server.shutDownInBackground() }
        let stopped = try await FerryBinary.run([url("/redirect/2")])
        #expect(stopped.err.hasPrefix("HTTP/1.1 302"))
        let followed = try await FerryBinary.run(["-F", url("/redirect/2")])
        #expect(followed.status == 0)
        #expect(followed.err.hasPrefix("HTTP/1.1 200 OK"))
        #expect(followed.out.contains(url("/get")))
    }

    @Test(":PORT/path means http://localhost:PORT/path")
    func shorthand() async throws {
        defer { server.shutDownInBackground() }
        let run = try await FerryBinary.run([":\(server.port)/json"])
        #expect(run.status == 0)
        #expect(run.out == TestServer.sampleJSON)
    }

    @Test("-o writes the file and one summary line when standard error is not a terminal")
    func download() async throws {
        defer { server.shutDownInBackground() }
        let reference = try await FerryBinary.run([url("/range/70000")])
        let run = try await FerryBinary.run(["-o", "out.bin", url("/range/70000")], in: directory)
        #expect(run.status == 0)
        #expect(run.out.isEmpty)
        #expect(try Data(contentsOf: directory.appendingPathComponent("out.bin")) == reference.stdout)
        #expect(reference.stdout.count == 70000)
        #expect(run.err == "saved out.bin: 70.0 kB in " + (run.err.components(separatedBy: " in ").last ?? ""))
        #expect(!run.err.contains("\r"))
    }

    @Test("-o with a 404 writes nothing and exits 4")
    func downloadRejected() async throws {
        defer { server.shutDownInBackground() }
        let run = try await FerryBinary.run(["-o", "missing.bin", url("/status/404")], in: directory)
        #expect(run.status == 4)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing.bin").path))
        #expect(run.err.contains("404 Not Found"))
    }

    @Test("a broken-off download keeps FILE.part, and --continue fetches only the rest")
    func resume() async throws {
        defer { server.shutDownInBackground() }
        let target = url("/range/50000?reset-at=20000")
        let broken = try await FerryBinary.run(["-o", "big.bin", target], in: directory)
        #expect(broken.status == 1)
        #expect(broken.err.contains("run again with --continue"))
        let part = directory.appendingPathComponent("big.bin.part")
        #expect(try Data(contentsOf: part).count == 20000)

        let resumed = try await FerryBinary.run(["-o", "big.bin", "--continue", target], in: directory)
        #expect(resumed.status == 0)
        #expect(resumed.err.contains("resuming big.bin after 20.0 kB"))
        #expect(server.receivedRequests.last?.header("Range") == "bytes=20000-")
        let whole = try await FerryBinary.run([url("/range/50000")])
        #expect(try Data(contentsOf: directory.appendingPathComponent("big.bin")) == whole.stdout)
        #expect(!FileManager.default.fileExists(atPath: part.path))
    }

    @Test("on a terminal, -o redraws a progress bar in place")
    func progressBarOnTerminal() async throws {
        defer { server.shutDownInBackground() }
        let run = try await FerryBinary.runWithTerminalStderr(
            ["-o", "drip.bin", url("/drip?numbytes=200000&duration=0.8")], in: directory)
        #expect(run.status == 0)
        let terminal = run.err
        let redraws = terminal.components(separatedBy: "\r").filter { $0.contains("%  [") }
        #expect(redraws.count >= 3, "expected several redraws, got: \(terminal.debugDescription)")
        #expect(terminal.contains("\u{1B}[K"))
        #expect(terminal.contains("/ 200 kB"))
        #expect(terminal.contains("100%  [████████████████████████]  200 kB / 200 kB"))
        #expect(terminal.contains("saved drip.bin: 200 kB"))
        #expect(try Data(contentsOf: directory.appendingPathComponent("drip.bin")).count == 200_000)
    }

    @Test("--stream prints each server-sent event's data as it arrives; lines for other types")
    func stream() async throws {
        defer { server.shutDownInBackground() }
        let events = try await FerryBinary.run(["--stream", url("/sse?count=3")])
        #expect(events.status == 0)
        #expect(events.out == "event 0\nline 2\nevent 1\nline 2\nevent 2\nline 2\n")
        let lines = try await FerryBinary.run(["-S", url("/ndjson?count=2")])
        #expect(lines.out == "{\"index\":0}\n{\"index\":1}\n")
    }

    @Test("--curl prints the command and sends nothing")
    func curl() async throws {
        defer { server.shutDownInBackground() }
        let before = server.requestCount
        let run = try await FerryBinary.run(["--curl", url("/get"), "q==1"])
        #expect(run.status == 0)
        #expect(
            run.out == "curl -H 'Accept: */*' -H 'Accept-Encoding: gzip, deflate' --compressed '\(url("/get?q=1"))'\n")
        #expect(server.requestCount == before)
    }
}
