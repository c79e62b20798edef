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
    /// Ends once Dispatch has installed the source: a `SIGINT` before that is ignored (its disposition is
    /// `SIG_IGN` from the start, so that it cannot kill the process), and Dispatch installs a source on a thread of
    /// its own, after `resume()` returns.
    private let registration: AsyncStream<Void>

    /// Takes over `SIGINT`; ``waitUntilInstalled()`` says when Ctrl-C is seen.
    init() {
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self)
        self.signals = signals
        let (registration, registered) = AsyncStream.makeStream(of: Void.self)
        self.registration = registration
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setRegistrationHandler { registered.finish() }
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

    /// Waits until a Ctrl-C is seen: until Dispatch has installed the source.
    func waitUntilInstalled() async {
        for await _ in registration {}
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
