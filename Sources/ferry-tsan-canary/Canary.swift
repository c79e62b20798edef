#if os(Linux)
import Glibc
#endif
import Synchronization
import FerryLocking

/// Two threads incrementing one counter, racing or not (see main.swift).
enum Canary {
    static let increments = 100_000

    /// The shared state, reached from both threads.
    final class Counters: @unchecked Sendable {
        var unlocked = 0
        let locked = Locked(0)
        let mutex = Mutex(0)
    }

    static let counters = Counters()

    /// Runs two threads in `mode` and returns the final count, or `nil` for an unknown mode or platform.
    static func run(_ mode: String) -> Int? {
        #if os(Linux)
        guard ["race", "locked", "mutex"].contains(mode) else { return nil }
        let threads = (0..<2).map { _ in start(mode) }
        for thread in threads { pthread_join(thread, nil) }
        return counters.unlocked + counters.locked.withLock { $0 } + counters.mutex.withLock { $0 }
        #else
        return nil
        #endif
    }

    #if os(Linux)
    private static func start(_ mode: String) -> pthread_t {
        var thread = pthread_t()
        let created =
            switch mode {
            case "race":
                pthread_create(
                    &thread, nil,
                    { _ in
                        for _ in 0..<Canary.increments { Canary.counters.unlocked += 1 }
                        return nil
                    }, nil)
            case "locked":
                pthread_create(
                    &thread, nil,
                    { _ in
                        for _ in 0..<Canary.increments { Canary.counters.locked.withLock { $0 += 1 } }
                        return nil
                    }, nil)
            default:
                pthread_create(
                    &thread, nil,
                    { _ in
                        for _ in 0..<Canary.increments { Canary.counters.mutex.withLock { $0 += 1 } }
                        return nil
                    }, nil)
            }
        precondition(created == 0, "pthread_create failed")
        return thread
    }
    #endif
}
