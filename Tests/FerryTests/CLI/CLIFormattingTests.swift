import Ferry
import Foundation
import Testing

@testable import FerryCLI

@Suite("ferry: progress, units, waterfall and curl")
struct CLIFormattingTests {
    @Test("units for people")
    func units() {
        #expect(Units.bytes(512) == "512 B")
        #expect(Units.bytes(12_345) == "12.3 kB")
        #expect(Units.bytes(1_500_000) == "1.50 MB")
        #expect(Units.rate(820_000) == "820 kB/s")
        #expect(Units.duration(.microseconds(850)) == "850 µs")
        #expect(Units.duration(.milliseconds(12.3)) == "12.3 ms")
        #expect(Units.duration(.seconds(4.56)) == "4.56 s")
        #expect(Units.duration(.seconds(125)) == "2m 05s")
    }

    @Test("the progress line: percentage, bar, bytes, rate, ETA")
    func progressLine() {
        let bar = ProgressBar(width: 10)
        let half = TransferProgress(completedBytes: 500_000, totalBytes: 1_000_000, bytesPerSecond: 250_000)
        #expect(bar.line(half) == " 50%  [█████     ]  500 kB / 1.00 MB  250 kB/s  ETA 2.00 s")
        let unknown = TransferProgress(completedBytes: 2048, totalBytes: nil)
        #expect(bar.line(unknown) == "2.05 kB")
        let done = TransferProgress(completedBytes: 10, totalBytes: 10, bytesPerSecond: 5, isFinished: true)
        #expect(bar.line(done) == "100%  [██████████]  10 B / 10 B  5 B/s  done")
        #expect(bar.cells(0.05) == "▌         ")
        #expect(bar.cells(0.0625) == "▋         ")
        #expect(
            ProgressBar.summary(bytes: 2_000_000, file: "f", elapsed: .seconds(2))
                == "saved f: 2.00 MB in 2.00 s (1.00 MB/s)")
    }

    @Test("the waterfall puts each phase on one time axis")
    func waterfall() {
        let waterfall = Waterfall(
            phases: [
                .init(label: "waiting", start: .zero, end: .milliseconds(30), note: "a"),
                .init(label: "receiving", start: .milliseconds(30), end: .milliseconds(40), note: "b"),
            ], total: .milliseconds(40), width: 8)
        #expect(
            waterfall.render() == """
                          0 ─ 40.0 ms
                waiting   ██████   30.0 ms  a
                receiving       ██ 10.0 ms  b

                """)
    }

    @Test("--curl quotes for the shell and carries the body, redirects and timeouts")
    func curl() throws {
        let options = try CommandLineParser.parse(
            ["PUT", "example.com/x", "name=it's", "n:=1", "X-A:1", "-F", "--max-redirects", "4", "--max-time", "2.5"])
        let plan = try RequestPlan(options: options)
        #expect(
            CurlCommand.make(plan, options: options)
                == #"curl -X PUT -H 'Accept: application/json, */*;q=0.5' -H 'Accept-Encoding: gzip, deflate' -H 'X-A: 1' "#
                + #"--compressed -H 'Content-Type: application/json' --data-raw '{"name":"it'\''s","n":1}' "#
                + "-L --max-redirs 4 --max-time 2.5 http://example.com/x")
        let download = try CommandLineParser.parse(["-o", "f", "-c", "--timeout", "3", ":8/f"])
        #expect(
            CurlCommand.make(try RequestPlan(options: download), options: download)
                == "curl -H 'Accept: */*' --connect-timeout 3 --speed-limit 1 --speed-time 3 -o f -C - "
                + "http://localhost:8/f")
        let named = try CommandLineParser.parse(["-d", ":8/f"])
        #expect(
            CurlCommand.make(try RequestPlan(options: named), options: named)
                == "curl -H 'Accept: */*' -O -J http://localhost:8/f")
    }

    @Test("exit statuses are httpie's: 1 failure, 2 usage and timeout, 3/4/5 status classes, 6 redirects")
    func exitStatuses() {
        let expected: [(ExitCode, Int32)] = [
            (.success, 0), (.failure, 1), (.network, 1), (.usage, 2), (.timeout, 2), (.redirection, 3),
            (.clientError, 4), (.serverError, 5), (.tooManyRedirects, 6),
        ]
        for (code, status) in expected { #expect(code.rawValue == status, "\(code)") }
        #expect(ExitCode(FerryError(.timedOut(.idle))) == .timeout)
        #expect(ExitCode(FerryError(.timedOut(.total))) == .timeout)
        #expect(ExitCode(FerryError(.tooManyRedirects(limit: 3))) == .tooManyRedirects)
        #expect(ExitCode(FerryError(.transport(.cannotConnect))) == .network)
        #expect(ExitCode(FerryError(.unacceptableStatus(404))) == .clientError)
        #expect(ExitCode(status: 302) == .redirection)
        #expect(ExitCode(status: 503) == .serverError)
        #expect(ExitCode(status: 200) == nil)
    }
}
