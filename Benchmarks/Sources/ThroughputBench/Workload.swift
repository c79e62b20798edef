import Foundation

/// One measured workload; a process runs exactly one, so that its peak RSS belongs to it alone.
enum Workload: String, CaseIterable {
    /// `count` GETs of a small JSON body, one after another.
    case smallSequential = "small-sequential"
    /// `count` GETs of a small JSON body, `width` in flight (a sliding window in a task group).
    case smallConcurrent = "small-concurrent"
    /// `count` GETs of a JSON array decoded into `[Item]`, one after another.
    case decode
    /// One GET written to a file.
    case downloadDisk = "download-disk"
    /// One GET collected in memory.
    case downloadMemory = "download-memory"
    /// `count` POSTs of a file to the upload sink.
    case upload
    /// `count` POSTs to the upload sink of a body the application produces as it goes: `--chunk` bytes (256 KiB by
    /// default) of `Data` at a time from an `AsyncSequence`, `--expect` bytes in all (Ferry's `RequestBody.stream`;
    /// the raw engine's `.stream`).
    case streamUpload = "stream-upload"
    /// `count` GETs of a small JSON body that may be cached for an hour, one after another: with a cache, every one
    /// after the first is a fresh hit.
    case cachedSequential = "cached-sequential"
    /// `count` GETs of a small JSON body marked `no-store`, one after another: a cache looks each up and stores none.
    case noStoreSequential = "no-store-sequential"
    /// `count` GETs of `count` distinct URLs (`?n=1`, `?n=2`, …) of a small body that may be cached, one after
    /// another: every one is a miss that a cache stores, so a cache's memory (or disk) must stay within its budget.
    case distinctURLs = "distinct-urls"

    /// Requests per second for request-bound workloads, MB/s (10^6 bytes) for transfers.
    var unit: String {
        switch self {
        case .smallSequential, .smallConcurrent, .decode, .cachedSequential, .noStoreSequential, .distinctURLs: "req/s"
        case .downloadDisk, .downloadMemory, .upload, .streamUpload: "MB/s"
        }
    }
}

/// An element of array-10k.json.
struct Item: Decodable, Sendable {
    let id: Int
    let name: String
    let price: Double
    let tags: [String]
}

/// What a workload did: operations, and body bytes moved (for `decode`, elements decoded).
struct Tally {
    var operations = 0
    var bytes: Int64 = 0
}

/// The workload's arguments.
struct WorkloadOptions {
    var url: URL
    var count: Int
    var width: Int
    var file: URL?
    var destination: URL?
    /// Body bytes each operation must move; checked when given.
    var expectedBytes: Int64?
    /// The size of each chunk of a stream-upload body.
    var chunkSize = 256 << 10
}

struct WrongSize: Error, CustomStringConvertible {
    let got: Int64
    let expected: Int64
    var description: String { "moved \(got) bytes, expected \(expected)" }
}

extension Workload {
    /// Runs the workload against `client`.
    func run(_ client: any HTTPBenchClient, _ options: WorkloadOptions) async throws -> Tally {
        var tally = Tally()
        func check(_ bytes: Int64) throws {
            if let expected = options.expectedBytes, bytes != expected {
                throw WrongSize(got: bytes, expected: expected)
            }
            tally.operations += 1
            tally.bytes += bytes
        }
        switch self {
        case .smallSequential, .cachedSequential, .noStoreSequential:
            for _ in 0..<options.count {
                try check(Int64(try await client.data(from: options.url)))
            }
        case .distinctURLs:
            for index in 0..<options.count {
                var components = URLComponents(url: options.url, resolvingAgainstBaseURL: false)!
                components.queryItems = [URLQueryItem(name: "n", value: String(index))]
                try check(Int64(try await client.data(from: components.url!)))
            }
        case .smallConcurrent:
            try await withThrowingTaskGroup(of: Int.self) { group in
                var started = 0
                func startOne() {
                    group.addTask { try await client.data(from: options.url) }
                    started += 1
                }
                while started < min(options.width, options.count) { startOne() }
                while let bytes = try await group.next() {
                    try check(Int64(bytes))
                    if started < options.count { startOne() }
                }
            }
        case .decode:
            for _ in 0..<options.count {
                let items = try await client.decode([Item].self, from: options.url)
                guard !items.isEmpty else { throw WrongSize(got: 0, expected: options.expectedBytes ?? 1) }
                tally.operations += 1
                tally.bytes += Int64(items.count)
            }
        case .downloadDisk:
            let destination = options.destination ?? URL(fileURLWithPath: NSTemporaryDirectory() + "throughput.bin")
            for _ in 0..<options.count {
                try? FileManager.default.removeItem(at: destination)
                try check(try await client.download(from: options.url, to: destination))
            }
            try? FileManager.default.removeItem(at: destination)
        case .downloadMemory:
            for _ in 0..<options.count {
                try check(Int64(try await client.data(from: options.url)))
            }
        case .upload:
            guard let file = options.file else { throw UsageError("upload needs --file") }
            for _ in 0..<options.count {
                try check(try await client.upload(file: file, to: options.url))
            }
        case .streamUpload:
            guard let size = options.expectedBytes, size % Int64(options.chunkSize) == 0 else {
                throw UsageError("stream-upload needs --expect, a multiple of --chunk (\(options.chunkSize) bytes)")
            }
            let chunks = RepeatedChunks(size: options.chunkSize, count: Int(size) / options.chunkSize)
            for _ in 0..<options.count {
                try check(try await client.streamUpload(chunks, to: options.url))
            }
        }
        return tally
    }
}
