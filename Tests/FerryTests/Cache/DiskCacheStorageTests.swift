import Foundation
import Testing

@testable import Ferry

/// A fresh directory for one test, removed with it.
private final class ScratchDirectory: Sendable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-disk-cache-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: url) }

    func files(in folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(folder).path)) ?? []
    }

    /// The bytes of every file the store keeps.
    var bytesOnDisk: Int {
        ["entries", "bodies", "tmp"].reduce(0) { total, folder in
            files(in: folder).reduce(total) { total, name in
                let path = url.appendingPathComponent(folder).appendingPathComponent(name).path
                let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
                return total + (size ?? 0)
            }
        }
    }
}

@Suite("DiskCacheStorage: a directory, a budget, and faults that are misses")
struct DiskCacheStorageTests {
    private static func entry(_ body: Data, etag: String = "\"1\"") -> CachedResponse {
        CachedResponse(
            requestHeaders: ["Accept": "application/json"],
            response: HTTPResponse(
                statusCode: 200, headers: ["Cache-Control": "max-age=60", "ETag": etag],
                url: URL(string: "http://localhost/a")!, httpVersion: "1.1"),
            body: .data(body), requestTime: Date(timeIntervalSince1970: 1_000),
            responseTime: Date(timeIntervalSince1970: 1_001))
    }

    private static func pattern(_ count: Int, seed: UInt8 = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    @Test func aStoredResponseReadsBackInANewStoreOnTheSameDirectory() async throws {
        let scratch = ScratchDirectory()
        let body = Self.pattern(200_000)  // several 64 KiB chunks
        let first = try DiskCacheStorage(directory: scratch.url)
        await first.setEntries([Self.entry(body)], for: "GET http://localhost/a")

        let second = try DiskCacheStorage(directory: scratch.url)
        let entries = await second.entries(for: "GET http://localhost/a")

        #expect(entries.count == 1)
        #expect(entries.first?.response.headers["ETag"] == "\"1\"")
        #expect(entries.first?.response.httpVersion == "1.1")
        #expect(entries.first?.requestHeaders["Accept"] == "application/json")
        #expect(entries.first?.responseTime == Date(timeIntervalSince1970: 1_001))
        #expect(entries.first?.body.byteCount == body.count)
        #expect(entries.first?.body.load() == body)
        if case .file = entries.first?.body.storage {} else { Issue.record("a disk store hands out file bodies") }
        #expect(await second.entries(for: "GET http://localhost/b").isEmpty)
    }

    @Test func theLeastRecentlyUsedKeyGoesFirstAndTheFilesStayWithinTheBudget() async throws {
        let scratch = ScratchDirectory()
        let store = try DiskCacheStorage(directory: scratch.url, byteLimit: 3_000)
        await store.setEntries([Self.entry(Self.pattern(900))], for: "a")
        await store.setEntries([Self.entry(Self.pattern(900))], for: "b")
        _ = await store.entries(for: "a")
        await store.setEntries([Self.entry(Self.pattern(900))], for: "c")

        #expect(await store.entries(for: "a").count == 1)
        #expect(await store.entries(for: "b").isEmpty, "the least recently used key was evicted")
        #expect(await store.entries(for: "c").count == 1)
        #expect(await store.currentByteCount <= 3_000)
        #expect(scratch.bytesOnDisk == (await store.currentByteCount), "what it counts is what is on disk")
        #expect(scratch.files(in: "bodies").count == 2)
    }

    @Test func aResponseLargerThanTheBudgetIsNotKept() async throws {
        let scratch = ScratchDirectory()
        let store = try DiskCacheStorage(directory: scratch.url, byteLimit: 500)
        await store.setEntries([Self.entry(Self.pattern(1_000))], for: "a")
        #expect(await store.entries(for: "a").isEmpty)
        #expect(scratch.bytesOnDisk == 0)
    }

    @Test func whatACrashLeftIsRemovedAndNeverServed() async throws {
        let scratch = ScratchDirectory()
        let store = try DiskCacheStorage(directory: scratch.url)
        await store.setEntries([Self.entry(Self.pattern(1_000))], for: "kept")
        await store.setEntries([Self.entry(Self.pattern(1_000))], for: "truncated")
        // What a crash mid-write leaves: a half-written temporary file, a body no record names yet, and (had the
        // disk lied about a write) a record cut short.
        let folder = scratch.url
        try Data(count: 10).writeUnsynced(to: folder.appendingPathComponent("tmp/half-written"))
        try Data(count: 10).writeUnsynced(to: folder.appendingPathComponent("bodies/orphan"))
        let truncatedName = try #require(
            scratch.files(in: "entries").first { name in
                let data = try? Data(contentsOf: folder.appendingPathComponent("entries/\(name)"))
                return data.map { String(decoding: $0, as: UTF8.self).contains("truncated") } ?? false
            })
        let record = folder.appendingPathComponent("entries/\(truncatedName)")
        try Data(try Data(contentsOf: record).prefix(40)).writeUnsynced(to: record)

        let reopened = try DiskCacheStorage(directory: scratch.url)

        #expect(await reopened.entries(for: "truncated").isEmpty, "a truncated record is a miss")
        #expect(await reopened.entries(for: "kept").first?.body.load() == Self.pattern(1_000))
        #expect(scratch.files(in: "tmp").isEmpty)
        #expect(!scratch.files(in: "bodies").contains("orphan"))
        #expect(scratch.files(in: "bodies").count == 1, "the truncated record's body went with it")
        #expect(scratch.files(in: "entries").count == 1)
    }

    @Test func aCorruptRecordIsAMissAndIsRemoved() async throws {
        let scratch = ScratchDirectory()
        let store = try DiskCacheStorage(directory: scratch.url)
        await store.setEntries([Self.entry(Self.pattern(100))], for: "a")
        let name = try #require(scratch.files(in: "entries").first)
        let record = scratch.url.appendingPathComponent("entries/\(name)")
        var bytes = try Data(contentsOf: record)
        bytes[bytes.count - 20] ^= 0xFF
        try bytes.writeUnsynced(to: record)
        let reopened = try DiskCacheStorage(directory: scratch.url)  // the store that wrote it remembers it decoded

        #expect(await reopened.entries(for: "a").isEmpty)
        #expect(scratch.files(in: "entries").isEmpty)
        #expect(scratch.files(in: "bodies").isEmpty)
        #expect(await reopened.currentByteCount == 0)
    }

    @Test func aCorruptOrTruncatedBodyDoesNotLoad() async throws {
        let scratch = ScratchDirectory()
        let store = try DiskCacheStorage(directory: scratch.url)
        await store.setEntries([Self.entry(Self.pattern(1_000))], for: "a")
        let body = scratch.url.appendingPathComponent("bodies/\(try #require(scratch.files(in: "bodies").first))")

        var flipped = try Data(contentsOf: body)
        flipped[500] ^= 0x01
        try flipped.writeUnsynced(to: body)
        #expect(await store.entries(for: "a").first?.body.load() == nil, "same length, wrong checksum")

        try Data(flipped.prefix(999)).writeUnsynced(to: body)
        #expect(await store.entries(for: "a").first?.body.load() == nil, "a byte short")

        try FileManager.default.removeItem(at: body)
        #expect(await store.entries(for: "a").first?.body.load() == nil, "gone")
    }

    @Test(.ownThreads) func aFullDiskStoresNothingAndLeavesNoFiles() async throws {
        let scratch = ScratchDirectory()
        let store = try DiskCacheStorage(directory: scratch.url)
        await store.setEntries([Self.entry(Self.pattern(100))], for: "a")
        await store.setRoomForTesting(5_000)

        await store.setEntries([Self.entry(Self.pattern(300_000), etag: "\"2\"")], for: "a")

        #expect(await store.entries(for: "a").isEmpty, "the old response was being replaced: neither is kept")
        #expect(scratch.files(in: "tmp").isEmpty, "the partly written file is removed")
        #expect(scratch.files(in: "bodies").isEmpty)
        #expect(scratch.files(in: "entries").isEmpty)
        #expect(await store.currentByteCount == 0)

        await store.setRoomForTesting(nil)
        await store.setEntries([Self.entry(Self.pattern(300_000), etag: "\"2\"")], for: "a")
        #expect(await store.entries(for: "a").first?.body.load() == Self.pattern(300_000), "room again: stored")
    }

    @Test(.ownThreads) func aFileBodyIsCopiedAndAFullDiskMidCopyStoresNothing() async throws {
        let scratch = ScratchDirectory()
        let store = try DiskCacheStorage(directory: scratch.url)
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-source-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: source) }
        let body = Self.pattern(200_000)
        try body.writeUnsynced(to: source)
        var entry = Self.entry(Data())
        entry.body = .file(source, byteCount: body.count)

        await store.setRoomForTesting(100_000)
        await store.setEntries([entry], for: "a")
        #expect(await store.entries(for: "a").isEmpty, "the disk filled up half-way through the copy")
        #expect(scratch.files(in: "tmp").isEmpty && scratch.files(in: "bodies").isEmpty)

        await store.setRoomForTesting(nil)
        await store.setEntries([entry], for: "a")
        try FileManager.default.removeItem(at: source)
        let stored = try #require(await store.entries(for: "a").first)
        #expect(stored.body.load() == body, "the store's own copy outlives the original")
        #expect(stored.body.responseBody() != nil)

        var changed = entry
        changed.body = .file(source, byteCount: 5)  // the file is gone: nothing to copy
        await store.setEntries([changed], for: "b")
        #expect(await store.entries(for: "b").isEmpty)
    }

    @Test(.ownThreads) func concurrentWritersAndReadersNeverSeeATornBody() async throws {
        let scratch = ScratchDirectory()
        let store = try DiskCacheStorage(directory: scratch.url)
        let size = 100_000
        let bodies = (0..<16).map { Data(repeating: UInt8($0), count: size) }
        let torn = await withTaskGroup(of: Int.self) { group in
            for body in bodies {
                group.addTask {
                    await store.setEntries([Self.entry(body)], for: "shared")
                    return 0
                }
                group.addTask {
                    var torn = 0
                    for entry in await store.entries(for: "shared") {
                        // A body read after a writer replaced it is gone (a miss), never mixed.
                        guard let read = entry.body.load() else { continue }
                        if read.count != size || Set(read).count != 1 { torn += 1 }
                    }
                    return torn
                }
            }
            return await group.reduce(0, +)
        }

        #expect(torn == 0)
        let last = try #require(await store.entries(for: "shared").first?.body.load())
        #expect(bodies.contains(last))
        #expect(scratch.files(in: "bodies").count == 1, "every replaced body was removed")
        #expect(scratch.files(in: "entries").count == 1)
        #expect(scratch.files(in: "tmp").isEmpty)
    }

    @Test func replacingKeepsTheBodyFileOfAResponseThatStays() async throws {
        let scratch = ScratchDirectory()
        let store = try DiskCacheStorage(directory: scratch.url)
        await store.setEntries([Self.entry(Self.pattern(1_000))], for: "a")
        let before = scratch.files(in: "bodies")
        var entry = try #require(await store.entries(for: "a").first)
        entry.response.headers.update(name: "Date", value: "Thu, 26 Nov 2026 12:00:00 GMT")  // as a 304 freshens it

        await store.setEntries([entry], for: "a")

        #expect(scratch.files(in: "bodies") == before, "the body was not written again")
        #expect(await store.entries(for: "a").first?.response.headers["Date"] == "Thu, 26 Nov 2026 12:00:00 GMT")
    }

    @Test func removeAllEmptiesTheDirectory() async throws {
        let scratch = ScratchDirectory()
        let store = try DiskCacheStorage(directory: scratch.url)
        await store.setEntries([Self.entry(Self.pattern(1_000))], for: "a")
        await store.setEntries([Self.entry(Self.pattern(1_000))], for: "b")
        await store.removeAll()
        #expect(scratch.bytesOnDisk == 0)
        #expect(await store.entries(for: "a").isEmpty)
        #expect(await store.currentByteCount == 0)
    }

    @Test func aDirectoryThatCannotBeCreatedFailsLoudly() throws {
        let scratch = ScratchDirectory()
        try Data().writeUnsynced(to: scratch.url)  // a file where the directory should be
        #expect(throws: (any Error).self) { try DiskCacheStorage(directory: scratch.url.appendingPathComponent("x")) }
    }
}

extension DiskCacheStorage {
    func setRoomForTesting(_ room: Int?) {
        roomForTesting = room
    }
}

@Suite("RecencyOrder")
struct RecencyOrderTests {
    @Test(.ownThreads) func theOldestIsTheLeastRecentlyUsedAndTheLogStaysProportionalToTheKeys() {
        var order = RecencyOrder<Int>()
        for key in 0..<3 { order.use(key) }
        order.use(0)
        #expect(order.oldest() == 1)
        order.remove(1)
        #expect(order.oldest() == 2)
        // A cache that inserts and evicts forever, 100 keys at a time: the log must not grow with the operations.
        for key in 3..<100_000 {
            order.use(key)
            if order.count > 100, let oldest = order.oldest() { order.remove(oldest) }
        }
        #expect(order.count == 100)
        #expect(order.logLength <= 2 * 100 + 32)
        #expect(order.oldest() == 99_900)
    }
}
