import Ferry

/// `--timeline`: the phases of a request as bars on one time axis.
///
/// ```
/// 0 ─────────────────────────────────────── 22.4 ms
/// waiting    ██████████████████                 12.3 ms  sent → first byte
/// receiving                    ████████████     10.1 ms  first byte → last byte
/// ```
///
/// With a cache, a `cache` phase shows its decision: from the start to the end of the lookup (a hit, whose body then
/// comes `from the cache`, or a miss, sent after it), or from a conditional request's answer to the verdict.
struct Waterfall {
    /// One phase: where it starts and ends, from the request's start.
    struct Phase {
        var label: String
        var start: Duration
        var end: Duration
        var note: String
    }

    var phases: [Phase]
    var total: Duration
    var width = 40

    /// The phases of a response's timeline, with the cache's decision when a cache decided (`cache`, from the
    /// response's metrics, names it).
    init(_ timeline: Timeline, redirects: Int, cache: CacheStatus? = nil) {
        let start = timeline.requestStart
        let total = timeline.requestDuration
        var phases: [Phase] = []
        let decided = timeline.cacheDuration
        let sent = timeline.attempts.first.map { start.duration(to: $0.start) }
        if let decided, sent.map({ decided <= $0 }) ?? true {
            // Decided by the lookup, before anything was sent.
            phases.append(Phase(label: "cache", start: .zero, end: decided, note: "lookup → " + Self.name(cache)))
        }
        if let decided, sent == nil {
            phases.append(Phase(label: "receiving", start: decided, end: total, note: "from the cache"))
        } else if let first = timeline.firstResponseByte {
            let head = start.duration(to: first)
            let hops = redirects > 0 ? " (\(redirects) redirect\(redirects == 1 ? "" : "s"))" : ""
            phases.append(
                Phase(label: "waiting", start: phases.last?.end ?? .zero, end: head, note: "sent → first byte" + hops))
            phases.append(Phase(label: "receiving", start: head, end: total, note: "first byte → last byte"))
        } else {
            phases.append(Phase(label: "request", start: phases.last?.end ?? .zero, end: total, note: "no response"))
        }
        if let decided, let sent, decided > sent {
            // Decided by the answer to a conditional request: from the last head (or failure) to the decision.
            let last = timeline.attempts.last.map { start.duration(to: $0.responseStart ?? $0.end) } ?? decided
            phases.append(
                Phase(label: "cache", start: min(last, decided), end: decided, note: "answer → " + Self.name(cache)))
        }
        self.init(phases: phases, total: total)
    }

    /// A cache status as the waterfall names it.
    private static func name(_ status: CacheStatus?) -> String {
        switch status {
        case .hit: "hit"
        case .staleHit: "stale hit"
        case .revalidated: "revalidated"
        case .miss: "miss"
        case .unsatisfiable: "unsatisfiable (504)"
        case nil: "decided"
        }
    }

    init(phases: [Phase], total: Duration, width: Int = 40) {
        self.phases = phases
        self.total = total
        self.width = width
    }

    /// The waterfall as lines of text.
    func render() -> String {
        let labelWidth = max(9, phases.map(\.label.count).max() ?? 0)
        let totalText = Units.duration(total)
        let axis =
            String(repeating: " ", count: labelWidth + 1) + "0 "
            + String(repeating: "─", count: max(1, width - 2 - totalText.count)) + " " + totalText
        var lines = [axis]
        for phase in phases {
            let from = min(cell(phase.start), width - 1)
            let to = min(width, max(from + 1, cell(phase.end)))
            let bar =
                String(repeating: " ", count: from) + String(repeating: "█", count: to - from)
                + String(repeating: " ", count: max(0, width - to))
            let label = phase.label + String(repeating: " ", count: labelWidth - phase.label.count)
            let duration = Units.duration(phase.end - phase.start)
            lines.append("\(label) \(bar) \(duration)  \(phase.note)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func cell(_ offset: Duration) -> Int {
        guard total > .zero else { return 0 }
        let fraction = min(max(offset / total, 0), 1)
        return min(width, Int((fraction * Double(width)).rounded()))
    }
}
