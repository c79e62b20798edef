import Foundation
import Synchronization
import FerryLocking

/// A wall clock that moves only when a test advances it, for a `CookieJar`'s `now`.
final class ManualDateClock: Sendable {
    private let date: Locked<Date>

    /// Creates a clock stopped at `start`.
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        date = Locked(start)
    }

    /// The clock's current date.
    var now: Date { date.withLock { $0 } }

    /// Moves the clock forward.
    /// - Parameter seconds: How far.
    func advance(by seconds: TimeInterval) {
        date.withLock { $0 += seconds }
    }

    /// A `now` closure reading this clock.
    var reader: @Sendable () -> Date { { [self] in now } }
}
