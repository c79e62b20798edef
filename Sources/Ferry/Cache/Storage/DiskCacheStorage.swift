import Foundation

/// A ``CacheStorage`` in a directory, within a byte budget: it outlives the process, and when it is full the least
/// recently used keys go first.
///
/// Each key has a record file (the heads, times and body names) and each response a body file, in
/// `entries/` and `bodies/` under the directory. Every file is written under `tmp/` and then renamed into place, and
/// a body file never changes once placed, so a reader sees a whole entry or none, and a crash mid-write leaves
/// nothing that is served: the next store on the directory removes what it left. Records and bodies carry
/// checksums; a file that is truncated, corrupt or missing is a miss, never an error, and is removed. Bodies are
/// written and read in 64 KiB chunks, and the store holds no body in memory. Writing fails quietly (a full disk, a
/// read-only directory): the response is simply not stored.
///
/// One process at a time should use a directory: the store keeps its index of keys, sizes and recency in memory,
/// read from the directory when first used (entries found there count as used in the order they were written). Its
/// file operations are synchronous system calls, in chunks: records and writes on the store's actor, a hit's body
/// read by the request's own task from the file the record names (a body removed meanwhile is a miss).
public actor DiskCacheStorage: CacheStorage {
    /// The directory it keeps its files in.
    public nonisolated let directory: URL
    /// The most bytes of files it keeps.
    public nonisolated let byteLimit: Int

    private nonisolated let entriesDirectory: URL
    private nonisolated let bodiesDirectory: URL
    private nonisolated let temporaryDirectory: URL
    /// `bodies/`'s path with a trailing slash: body paths are built as strings (`cached-sequential`, disk: building
    /// a `URL` for each hit cost more than reading the file).
    private nonisolated let bodiesPath: String

    /// A key in the index: the bytes of its files and its bodies' names. The index holds every key the directory
    /// holds, so it is kept small: the key's 64-bit hash (its record's name) and binary UUIDs, no strings.
    private struct Slot {
        var cost: Int
        var bodies: [UUID]
    }

    private var slots: [UInt64: Slot] = [:]
    private var order = RecencyOrder<UInt64>()
    private var totalCost = 0
    private var indexed = false
    /// The records of the most recently read keys, decoded: a hit reads only its body's file (`cached-sequential`,
    /// disk: decoding the record at every hit was half of a hit's time). Bounded by ``recordsKept``.
    private var records: [UInt64: DiskCacheRecord] = [:]
    private var recordOrder = RecencyOrder<UInt64>()
    private static let recordsKept = 1_000
    /// The bytes the disk takes before it is full, when a test plays a full disk; `nil` for the real disk.
    var roomForTesting: Int?

    /// Opens the store in `directory`, creating the directory when it does not exist.
    /// - Parameters:
    ///   - directory: Where to keep the files; nothing else should write there.
    ///   - byteLimit: The most bytes of files it keeps (100 MiB unless given).
    /// - Throws: The file system's error when the directory cannot be created.
    public init(directory: URL, byteLimit: Int = 100 << 20) throws {
        self.directory = directory
        self.byteLimit = max(0, byteLimit)
        entriesDirectory = directory.appendingPathComponent("entries", isDirectory: true)
        bodiesDirectory = directory.appendingPathComponent("bodies", isDirectory: true)
        temporaryDirectory = directory.appendingPathComponent("tmp", isDirectory: true)
        bodiesPath = bodiesDirectory.path.hasSuffix("/") ? bodiesDirectory.path : bodiesDirectory.path + "/"
        for folder in [entriesDirectory, bodiesDirectory, temporaryDirectory] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    /// The bytes of its files now.
    public var currentByteCount: Int {
        indexIfNeeded()
        return totalCost
    }

    /// The responses stored under `key`, with their bodies in files read when they answer; reading them makes the
    /// key the most recently used.
    /// - Parameter key: The primary key.
    public func entries(for key: String) async -> [CachedResponse] {
        indexIfNeeded()
        let name = Self.name(of: key)
        guard slots[name] != nil, let record = record(named: name) else { return [] }
        // Another key whose name is the same (a 64-bit hash collision) is kept: this one is a miss.
        guard record.key == key else { return [] }
        order.use(name)
        return record.entries.map { entry in
            CachedResponse(
                stored: entry.stored,
                body: CachedBody(
                    storage: .file(
                        path: bodiesPath + entry.bodyName, byteCount: entry.byteCount, checksum: entry.checksum)))
        }
    }

    /// Replaces the responses under `key`: writes the bodies it does not have yet and the key's record, then evicts
    /// the least recently used keys until the files fit the budget. When a write fails, nothing is stored under
    /// `key`.
    /// - Parameters:
    ///   - entries: The responses to keep (none removes the key).
    ///   - key: The primary key.
    public func setEntries(_ entries: [CachedResponse], for key: String) async {
        indexIfNeeded()
        let name = Self.name(of: key)
        let kept = Set(slots[name]?.bodies ?? [])
        guard !entries.isEmpty else {
            remove(name)
            return
        }
        var written: [UUID] = []
        var bodies: [UUID] = []
        var record = DiskCacheRecord(key: key, entries: [])
        let recordBytes: Int
        do {
            for entry in entries {
                let (placed, body) = try place(entry, keeping: kept, written: &written)
                record.entries.append(placed)
                bodies.append(body)
            }
            let encoded = record.encoded()
            try install(at: entryURL(name)) { temporary in
                try CacheFile.create(temporary, holding: encoded, room: roomForTesting)
                return encoded.count
            }
            recordBytes = encoded.count
        } catch {
            for body in written { CacheFile.remove(bodyURL(body)) }
            remove(name)
            return
        }
        remember(record, named: name)
        for body in kept.subtracting(bodies) { CacheFile.remove(bodyURL(body)) }
        if let old = slots[name] { totalCost -= old.cost }
        let cost = recordBytes + record.entries.reduce(0) { $0 + $1.byteCount }
        slots[name] = Slot(cost: cost, bodies: bodies)
        totalCost += cost
        order.use(name)
        if cost > byteLimit { remove(name) }
        evictToFit()
    }

    /// Removes every stored response.
    public func removeAll() async {
        for folder in [entriesDirectory, bodiesDirectory, temporaryDirectory] {
            for file in CacheFile.names(in: folder) { CacheFile.remove(folder.appendingPathComponent(file)) }
        }
        slots = [:]
        order.removeAll()
        records = [:]
        recordOrder.removeAll()
        totalCost = 0
        indexed = true
    }

    // MARK: Files

    /// The record for an entry and its body's name, writing the body to a new file unless it is already one of
    /// this key's files.
    private func place(
        _ entry: CachedResponse, keeping kept: Set<UUID>, written: inout [UUID]
    ) throws
        -> (DiskCacheRecord.Entry, UUID)
    {
        if case .file(let path, let byteCount, let checksum?) = entry.body.storage, path.hasPrefix(bodiesPath),
            let name = UUID(uuidString: String(path.dropFirst(bodiesPath.count))), kept.contains(name)
        {
            let placed = DiskCacheRecord.Entry(
                stored: entry.stored, bodyName: name.uuidString, byteCount: byteCount, checksum: checksum)
            return (placed, name)
        }
        let body = UUID()
        var byteCount = 0
        var checksum: UInt64 = 0
        try install(at: bodyURL(body)) { temporary in
            switch entry.body.storage {
            case .data(let data):
                try CacheFile.create(temporary, holding: data, room: roomForTesting)
                (byteCount, checksum) = (data.count, CacheChecksum.of(data))
            case .file(let path, let expected, _):
                // Another file (a download's destination): copied in chunks; a file that changed stores nothing.
                (byteCount, checksum) = try CacheFile.copy(
                    path, expectedCount: expected, to: temporary, room: roomForTesting)
            }
            return byteCount
        }
        written.append(body)
        let placed = DiskCacheRecord.Entry(
            stored: entry.stored, bodyName: body.uuidString, byteCount: byteCount, checksum: checksum)
        return (placed, body)
    }

    /// Makes the file at `destination` (replacing what is there): `write` fills a new temporary file and returns its
    /// size, then it is renamed into place. A temporary file that fails is removed.
    private func install(at destination: URL, _ write: (URL) throws -> Int) throws {
        let temporary = temporaryDirectory.appendingPathComponent(UUID().uuidString)
        do {
            let size = try write(temporary)
            roomForTesting = roomForTesting.map { $0 - size }
            try CacheFile.move(temporary, to: destination)
        } catch {
            CacheFile.remove(temporary)
            throw error
        }
    }

    private func remove(_ name: UInt64) {
        guard let slot = slots.removeValue(forKey: name) else { return }
        CacheFile.remove(entryURL(name))
        for body in slot.bodies { CacheFile.remove(bodyURL(body)) }
        totalCost -= slot.cost
        roomForTesting = roomForTesting.map { $0 + slot.cost }
        order.remove(name)
        records[name] = nil
        recordOrder.remove(name)
    }

    /// The key's record, decoded: remembered, or read from its file (a file that does not decode is removed).
    private func record(named name: UInt64) -> DiskCacheRecord? {
        if let record = records[name] {
            recordOrder.use(name)
            return record
        }
        guard let data = CacheFile.contents(of: entryURL(name).path), let record = DiskCacheRecord(decoding: data)
        else {
            remove(name)
            return nil
        }
        remember(record, named: name)
        return record
    }

    private func remember(_ record: DiskCacheRecord, named name: UInt64) {
        records[name] = record
        recordOrder.use(name)
        while records.count > Self.recordsKept, let oldest = recordOrder.oldest() {
            records[oldest] = nil
            recordOrder.remove(oldest)
        }
    }

    private func evictToFit() {
        while totalCost > byteLimit, let oldest = order.oldest() {
            remove(oldest)
        }
    }

    /// Reads the directory once: drops what a crash left (temporary files, unreadable records, bodies no record
    /// names), and counts the rest, the least recently written first.
    private func indexIfNeeded() {
        guard !indexed else { return }
        indexed = true
        for file in CacheFile.names(in: temporaryDirectory) {
            CacheFile.remove(temporaryDirectory.appendingPathComponent(file))
        }
        var found: [(name: UInt64, slot: Slot, written: TimeInterval)] = []
        var named = Set<UUID>()
        for file in CacheFile.names(in: entriesDirectory) {
            let url = entriesDirectory.appendingPathComponent(file)
            guard let name = UInt64(file, radix: 16), let data = CacheFile.contents(of: url.path),
                let record = DiskCacheRecord(decoding: data), Self.name(of: record.key) == name
            else {
                CacheFile.remove(url)
                continue
            }
            let bodies = record.entries.compactMap { UUID(uuidString: $0.bodyName) }
            guard bodies.count == record.entries.count else {
                CacheFile.remove(url)
                continue
            }
            named.formUnion(bodies)
            let cost = data.count + record.entries.reduce(0) { $0 + $1.byteCount }
            found.append((name, Slot(cost: cost, bodies: bodies), CacheFile.modificationTime(of: url) ?? 0))
        }
        for file in CacheFile.names(in: bodiesDirectory) where UUID(uuidString: file).map(named.contains) != true {
            CacheFile.remove(bodiesDirectory.appendingPathComponent(file))
        }
        for entry in found.sorted(by: { $0.written < $1.written }) {
            slots[entry.name] = entry.slot
            totalCost += entry.slot.cost
            order.use(entry.name)
        }
        evictToFit()
    }

    /// A key's record file: its name in hexadecimal, 16 digits.
    private func entryURL(_ name: UInt64) -> URL {
        let hex = String(name, radix: 16)
        return entriesDirectory.appendingPathComponent(String(repeating: "0", count: 16 - hex.count) + hex)
    }

    private func bodyURL(_ name: UUID) -> URL {
        bodiesDirectory.appendingPathComponent(name.uuidString)
    }

    /// A key's name: its FNV-1a hash (its record holds the key, to tell collisions apart).
    private static func name(of key: String) -> UInt64 {
        CacheChecksum.of(key)
    }
}
