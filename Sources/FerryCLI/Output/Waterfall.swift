import Ferry

/// `--timeline`: the phases of a request as bars on one time axis.
///
/// ```
/// 0 ─────────────────────────────────────── 22.4 ms
/// waiting    ██████████████████                 12.3 ms  sent → first byte
/// receiving                    ████████████     10.1 ms  first byte → last byte
/// ```
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

    /// The phases of a response's timeline.
    init(_ timeline: Timeline, redirects: Int) {
        let start = timeline.requestStart
        let total = timeline.requestDuration
        var phases: [Phase] = []
        if let first = timeline.firstResponseByte {
            let head = start.duration(to: first)
            let hops = redirects > 0 ? " (\(redirects) redirect\(redirects == 1 ? "" : "s"))" : ""
            phases.append(Phase(label: "waiting", start: .zero, end: head, note: "sent → first byte" + hops))
            phases.append(Phase(label: "receiving", start: head, end: total, note: "first byte → last byte"))
        } else {
            phases.append(Phase(label: "request", start: .zero, end: total, note: "no response"))
        }
        self.init(phases: phases, total: total)
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
