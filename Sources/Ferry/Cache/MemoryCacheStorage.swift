import Foundation

/// A ``CacheStorage`` in memory, within a byte budget: when it is full, the least recently used keys go first.
///
/// A key's cost is the bytes of its bodies and header fields. A response larger than the whole budget is not kept.
/// Eviction scans the keys for the least recently used one, which is plain and fast enough for the thousands of
/// entries a memory budget holds.
public final class MemoryCacheStorage: CacheStorage {
    private struct Slot {
        var entries: [CachedResponse]
        var cost: Int
        var lastUse: UInt64
    }

    private struct State {
        var slots: [String: Slot] = [:]
        var totalCost = 0
        var clock: UInt64 = 0

        mutating func tick() -> UInt64 {
            clock += 1
            return clock
        }
    }

    /// The most bytes it keeps.
    public let byteLimit: Int
    private let state = Locked(State())

    /// Creates an empty store.
    /// - Parameter byteLimit: The most bytes it keeps (10 MiB unless given).
    public init(byteLimit: Int = 10 << 20) {
        self.byteLimit = max(0, byteLimit)
    }

    /// The bytes it holds now.
    public var currentByteCount: Int { state.withLock { $0.totalCost } }

    /// The responses stored under `key`; reading them makes the key the most recently used.
    /// - Parameter key: The primary key.
    public func entries(for key: String) async -> [CachedResponse] {
        state.withLock { state in
            guard var slot = state.slots[key] else { return [] }
            slot.lastUse = state.tick()
            state.slots[key] = slot
            return slot.entries
        }
    }

    /// Replaces the responses under `key`, evicting the least recently used keys until they fit; responses larger
    /// than the whole budget are not kept.
    /// - Parameters:
    ///   - entries: The responses to keep (none removes the key).
    ///   - key: The primary key.
    public func setEntries(_ entries: [CachedResponse], for key: String) async {
        let limit = byteLimit
        state.withLock { state in
            if let old = state.slots.removeValue(forKey: key) { state.totalCost -= old.cost }
            let cost = entries.reduce(0) { $0 + $1.cost }
            guard !entries.isEmpty, cost <= limit else { return }
            while state.totalCost + cost > limit,
                let oldest = state.slots.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.slots[oldest.key] = nil
                state.totalCost -= oldest.value.cost
            }
            state.slots[key] = Slot(entries: entries, cost: cost, lastUse: state.tick())
            state.totalCost += cost
        }
    }

    /// Removes every stored response.
    public func removeAll() async {
        state.withLock { state in
            state.slots = [:]
            state.totalCost = 0
        }
    }
}
