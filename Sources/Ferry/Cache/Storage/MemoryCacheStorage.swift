import Foundation

/// A ``CacheStorage`` in memory, within a byte budget: when it is full, the least recently used keys go first.
///
/// A key's cost is the bytes of its bodies and header fields. A response larger than the whole budget is not kept.
/// Finding the least recently used key takes constant time on average (`RecencyOrder`), however many keys it holds.
public final class MemoryCacheStorage: CacheStorage {
    private struct State {
        var slots: [String: (entries: [CachedResponse], cost: Int)] = [:]
        var order = RecencyOrder<String>()
        var totalCost = 0

        mutating func remove(_ key: String) {
            guard let slot = slots.removeValue(forKey: key) else { return }
            totalCost -= slot.cost
            order.remove(key)
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
            guard let slot = state.slots[key] else { return [] }
            state.order.use(key)
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
        // A body in a file (a download's destination, which may change) is read into memory when it fits.
        let entries = entries.compactMap { entry -> CachedResponse? in
            guard case .file = entry.body.storage else { return entry }
            guard entry.body.byteCount <= limit, let data = entry.body.load() else { return nil }
            var loaded = entry
            loaded.body = .data(data)
            return loaded
        }
        state.withLock { state in
            state.remove(key)
            let cost = entries.reduce(0) { $0 + $1.cost }
            guard !entries.isEmpty, cost <= limit else { return }
            while state.totalCost + cost > limit, let oldest = state.order.oldest() {
                state.remove(oldest)
            }
            state.slots[key] = (entries, cost)
            state.order.use(key)
            state.totalCost += cost
        }
    }

    /// Removes every stored response.
    public func removeAll() async {
        state.withLock { state in
            state = State()
        }
    }
}
