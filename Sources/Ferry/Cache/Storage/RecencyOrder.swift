/// Keys in the order they were last used, for evicting the least recently used one first.
///
/// Each use appends to a log; the oldest key is found by reading the log from its start and skipping uses that a
/// later one superseded. The log is rebuilt when it is more than twice as long as there are keys, so its memory stays
/// proportional to the keys and each operation costs constant time on average, however many keys there are.
struct RecencyOrder<Key: Hashable> {
    private var lastUse: [Key: UInt64] = [:]
    private var log: [(key: Key, use: UInt64)] = []
    private var start = 0
    private var clock: UInt64 = 0

    /// The number of keys.
    var count: Int { lastUse.count }

    /// The uses the log holds, superseded ones included.
    var logLength: Int { log.count }

    /// Makes `key` the most recently used (adding it when new).
    mutating func use(_ key: Key) {
        clock += 1
        lastUse[key] = clock
        log.append((key, clock))
        // The whole log counts, the read prefix too: it holds superseded uses (and their keys) until rebuilt.
        if log.count > 2 * lastUse.count + 32 { compact() }
    }

    /// Forgets `key`.
    mutating func remove(_ key: Key) {
        lastUse[key] = nil
    }

    /// The least recently used key, if any.
    mutating func oldest() -> Key? {
        while start < log.count {
            let entry = log[start]
            if lastUse[entry.key] == entry.use { return entry.key }
            start += 1
        }
        return nil
    }

    /// Forgets every key.
    mutating func removeAll() {
        self = RecencyOrder()
    }

    private mutating func compact() {
        log = lastUse.map { (key: $0.key, use: $0.value) }.sorted { $0.use < $1.use }
        start = 0
    }
}
