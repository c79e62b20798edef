import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and standard error, whether each is a terminal, and whether to colour them.
struct Console: Sendable {
    /// One of the two output streams.
    struct Stream: Sendable {
        let handle: FileHandle
        /// Whether the stream is a terminal (not a pipe or a file).
        let isTerminal: Bool
        /// Whether to use ANSI colours on it: a terminal, and colours not turned off.
        let usesColor: Bool

        /// Writes text as UTF-8, at once.
        func write(_ text: String) {
            handle.write(Data(text.utf8))
        }

        /// Writes bytes as they are.
        func write(_ data: Data) {
            handle.write(data)
        }

        /// Applies a style when colours are on.
        func styled(_ text: String, _ style: ANSIStyle) -> String {
            usesColor ? style.apply(to: text) : text
        }
    }

    let out: Stream
    let err: Stream

    /// The process's own streams. Colours are off with `--no-color`, with `NO_COLOR` set, or with `TERM=dumb`.
    static func standard(usesColor: Bool) -> Console {
        let environment = ProcessInfo.processInfo.environment
        let colorAllowed = usesColor && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        let outIsTerminal = isatty(STDOUT_FILENO) == 1
        let errIsTerminal = isatty(STDERR_FILENO) == 1
        return Console(
            out: Stream(
                handle: .standardOutput, isTerminal: outIsTerminal, usesColor: colorAllowed && outIsTerminal),
            err: Stream(
                handle: .standardError, isTerminal: errIsTerminal, usesColor: colorAllowed && errIsTerminal))
    }
}
