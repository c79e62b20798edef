import Dispatch
import Foundation
import FerryLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (`SIGINT`) while `ferry ws` runs: the first one is reported (the socket then closes with 1001), a second
/// one ends the process at once with ``ExitCode/interrupted``. ``stop()`` gives `SIGINT` its default action back.
final class InterruptSignal: Sendable {
    /// One element for the first Ctrl-C.
    let signals: AsyncStream<Void>
    private let source: Locked<(any DispatchSourceSignal)?>

    /// Takes over `SIGINT`.
    init() {
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self)
        self.signals = signals
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let count = Count()
        source.setEventHandler {
            let seen = count.value.withLock { count in
                count += 1
                return count
            }
            if seen > 1 { exit(ExitCode.interrupted.rawValue) }
            continuation.yield()
            continuation.finish()
        }
        source.resume()
        self.source = Locked(source)
    }

    /// How many times Ctrl-C was pressed.
    private final class Count: Sendable {
        let value = Locked(0)
    }

    /// Gives `SIGINT` back its default action.
    func stop() {
        source.withLock { source in
            source?.cancel()
            source = nil
        }
        signal(SIGINT, SIG_DFL)
    }
}
