import Foundation
import Testing

/// The built `ferry` against httpbin under gunicorn (`FERRY_HTTPBIN_URL`, started by `scripts/test.sh`): a server
/// that is not Ferry's own, echoing what it received.
@Suite(
    "ferry: httpie's flags against httpbin", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: InteropServers.httpbin != nil))
struct FerryBinaryHTTPBinTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-httpbin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func url(_ path: String) -> String {
        (InteropServers.httpbin?.absoluteString ?? "http://127.0.0.1:1") + path
    }

    private func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("-v lists every header httpbin received, with the values it received")
    func verboseAsSent() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await FerryBinary.run(["-v", url("/anything"), "X-Trace:7", "a[b]:=1"])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.err.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("POST /anything HTTP/1.1") })
        var shown: [String: String] = [:]
        for line in lines[(start + 1)...].prefix(while: { !$0.isEmpty }) {
            let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
            shown[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        let echoed = try #require(try json(run.stdout)["headers"] as? [String: String])
        let received = Dictionary(uniqueKeysWithValues: echoed.map { ($0.key.lowercased(), $0.value) })
        #expect(shown == received, "shown \(shown) received \(received)")
        #expect(try json(run.stdout)["data"] as? String == #"{"a":{"b":1}}"#)
    }

    @Test("--session keeps httpbin's cookie and the credentials for the next run")
    func session() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("httpbin.json").path
        let first = try await FerryBinary.run(["--session", path, "-a", "ada:pw", url("/cookies/set?flavour=oat")])
        #expect(first.status == 0, "\(first.err)")
        let cookies = try await FerryBinary.run(["--session", path, url("/cookies")])
        let jar = try #require(try json(cookies.stdout)["cookies"] as? [String: String])
        #expect(jar == ["flavour": "oat"])
        let auth = try await FerryBinary.run(["--check-status", "--session", path, url("/basic-auth/ada/pw")])
        #expect(auth.status == 0, "the session's Authorization was sent: \(auth.err)")
    }

    @Test("-d takes httpbin's Content-Disposition name; --check-status maps a 418 to 4")
    func downloadAndStatus() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await FerryBinary.run(
            ["-d", url("/response-headers"), "Content-Disposition==attachment; filename=\"echo.json\""], in: directory)
        #expect(run.status == 0, "\(run.err)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("echo.json").path))
        #expect(try await FerryBinary.run(["--check-status", url("/status/418")]).status == 4)
        #expect(try await FerryBinary.run(["--check-status", url("/status/502")]).status == 5)
        #expect(try await FerryBinary.run(["--check-status", url("/redirect/1")]).status == 3)
    }
}
