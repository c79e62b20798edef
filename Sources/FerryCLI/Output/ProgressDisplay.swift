import Ferry

/// Shows a download's progress on standard error: redrawn in place on a terminal, nothing until the summary
/// elsewhere.
struct ProgressDisplay {
    /// Where the bar goes; `nil` for no bar (not a terminal, or `-q`).
    let stream: Console.Stream?
    var bar = ProgressBar()
    private var drawn = false

    init(stream: Console.Stream?) {
        self.stream = stream.flatMap { $0.isTerminal ? $0 : nil }
    }

    /// Redraws the line: carriage return, the line, erase to the end of the line.
    mutating func update(_ progress: TransferProgress) {
        guard let stream else { return }
        stream.write("\r" + bar.line(progress) + "\u{1B}[K")
        drawn = true
    }

    /// Ends the line the bar is on.
    mutating func finish() {
        guard let stream, drawn else { return }
        stream.write("\n")
        drawn = false
    }
}
