import Synchronization

/// Identifies one request in the events an ``EventMonitor`` receives; unique within the process.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    /// The number, counting up from 1 in the order requests were made.
    public let rawValue: UInt64

    private static let counter = Atomic<UInt64>(0)

    /// The next identity.
    static func next() -> RequestID {
        RequestID(rawValue: counter.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    /// `#42`.
    public var description: String { "#\(rawValue)" }
}
