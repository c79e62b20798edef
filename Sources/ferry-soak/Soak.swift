import Ferry
import Foundation
import FerryLocking

/// The three phases of a soak, each bounded by the run's time limit.
struct Soak: Sendable {
    let session: Session
    let options: SoakOptions

    /// The faults requested in turn: every one ends by itself within the idle timeout.
    static let faults = [
        "reset", "reset-mid-body", "truncate", "bad-chunk", "garbage", "close", "stall-body", "bad-length",
        "conflicting-lengths",
    ]

    func run() async -> SoakReport {
        // One request first, so that the start snapshot holds the transport's long-lived threads and sockets.
        _ = await session.get("bytes/16").result
        let report = SoakReport(start: ProcessSnapshot())
        let deadline = ContinuousClock.now + .seconds(options.seconds)
        await report.phase("requests") {
            await forEach(options.requests, until: deadline) { _ in
                report.count(await session.get("bytes/1024").result)
            }
        }
        await report.phase("cancellations") {
            await forEach(options.cancellations, until: deadline) { index in
                let task = session.get(index.isMultiple(of: 2) ? "delay/1" : "drip?numbytes=2000&duration=1")
                task.resume()
                try? await Task.sleep(for: .microseconds(Int.random(in: 0..<5_000)))
                task.cancel()
                report.count(await task.result)
            }
        }
        await report.phase("faults") {
            await forEach(options.faults, until: deadline) { index in
                report.count(await session.get("fault/\(Self.faults[index % Self.faults.count])").result)
            }
        }
        return report
    }

    /// Runs `body` for 0..<count with `options.width` in flight, issuing nothing new after `deadline`.
    private func forEach(
        _ count: Int, until deadline: ContinuousClock.Instant, _ body: @escaping @Sendable (Int) async -> Void
    ) async {
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            while next < count, next < options.width {
                let index = next
                group.addTask { await body(index) }
                next += 1
            }
            while await group.next() != nil {
                guard next < count, ContinuousClock.now < deadline else { continue }
                let index = next
                group.addTask { await body(index) }
                next += 1
            }
        }
    }
}

/// Counts outcomes by reason, times the phases, and prints the summary.
final class SoakReport: Sendable {
    let start: ProcessSnapshot
    private let state = Locked<(outcomes: [String: Int], phases: [String], failures: Int)>(([:], [], 0))

    init(start: ProcessSnapshot) {
        self.start = start
    }

    var failures: Int { state.withLock { $0.failures } }

    func count(_ result: Result<Data, FerryError>) {
        let key: String =
            switch result {
            case .success: "ok"
            case .failure(let error): "\(error.reason)"
            }
        state.withLock { $0.outcomes[key, default: 0] += 1 }
    }

    func phase(_ name: String, _ body: () async -> Void) async {
        let before = state.withLock { $0.outcomes.values.reduce(0, +) }
        let clock = ContinuousClock()
        let elapsed = await clock.measure { await body() }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let done = state.withLock { $0.outcomes.values.reduce(0, +) } - before
        let line = String(format: "%@: %d requests in %.1f s (%.0f/s)", name, done, seconds, Double(done) / seconds)
        state.withLock { $0.phases.append(line) }
    }

    func summary(end: ProcessSnapshot) -> String {
        let (outcomes, phases) = state.withLock { ($0.outcomes, $0.phases) }
        let byReason = outcomes.sorted { $0.value > $1.value }.map { "  \($0.value) \($0.key)" }
        return (["start: \(start.description)"] + phases + ["outcomes:"] + byReason + ["end: \(end.description)"])
            .joined(separator: "\n")
    }
}
