import AsyncHTTPClient
import Ferry
import Foundation

// Ferry against the clients it is built on, one (client, workload) per process, so that /usr/bin/time's peak RSS
// belongs to that pair alone. Run by run-throughput.sh, which interleaves rounds; see Arguments for the usage.

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(64)
}

// Every client sends Ferry's default headers (User-Agent, Accept-Encoding: gzip, deflate, Accept-Language), so
// that every client asks nginx for the same bytes.
let headers = Session.Configuration.defaultHeaders
/// Where a disk cache client keeps its files: new for each process, removed when it ends.
let cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "ferry-bench-cache-\(ProcessInfo.processInfo.processIdentifier)")
/// A disk store in `cacheDirectory`, 100 MiB unless FERRY_BENCH_DISK_CACHE_BYTES says otherwise.
func diskStorage() throws -> DiskCacheStorage {
    let limit = ProcessInfo.processInfo.environment["FERRY_BENCH_DISK_CACHE_BYTES"].flatMap { Int($0) } ?? 100 << 20
    return try DiskCacheStorage(directory: cacheDirectory, byteLimit: limit)
}

/// The bytes a cache client's store holds at the end (memory or files), for the report; `nil` without a cache.
func cacheBytes(_ client: any HTTPBenchClient) async -> Int? {
    guard let storage = (client as? FerryClient)?.session.configuration.cache?.storage else { return nil }
    if let memory = storage as? MemoryCacheStorage { return memory.currentByteCount }
    if let disk = storage as? DiskCacheStorage { return await disk.currentByteCount }
    return nil
}

let client: any HTTPBenchClient
do {
    client =
        switch arguments.client {
        case .rawURLSession: RawURLSessionClient(headers: headers)
        case .rawAsyncHTTPClient: RawAsyncHTTPClient(headers: headers)
        case .ferryURLSession: FerryClient(transport: URLSessionTransport())
        case .ferryAsyncHTTPClient: FerryClient(transport: AsyncHTTPClientTransport())
        case .ferryURLSessionCache: FerryClient(transport: URLSessionTransport(), cache: HTTPCache())
        case .ferryAsyncHTTPClientCache: FerryClient(transport: AsyncHTTPClientTransport(), cache: HTTPCache())
        case .ferryURLSessionDiskCache:
            FerryClient(transport: URLSessionTransport(), cache: HTTPCache(storage: try diskStorage()))
        case .ferryAsyncHTTPClientDiskCache:
            FerryClient(transport: AsyncHTTPClientTransport(), cache: HTTPCache(storage: try diskStorage()))
        case .rawAsyncHTTPClientDelegate: RawAsyncHTTPClient(api: .delegate, headers: headers)
        case .rawAsyncHTTPClientChildTask: RawAsyncHTTPClient(api: .asyncInChildTask, headers: headers)
        case .alamofire, .get: try peerClient(arguments.client, headers: headers.map { ($0.name, $0.value) })
        }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(64)
}

do {
    _ = try await client.data(from: arguments.warmUpURL)
    let residentAfterWarmUp = ProcessMemory.residentKiB ?? -1
    let start = ContinuousClock.now
    let tally = try await arguments.workload.run(client, arguments.options)
    let elapsed = start.duration(to: .now)
    let cacheBytesAtEnd = await cacheBytes(client)
    await client.shutdown()
    try? FileManager.default.removeItem(at: cacheDirectory)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate =
        arguments.workload.unit == "req/s" ? Double(tally.operations) / seconds : Double(tally.bytes) / seconds / 1e6
    var line: [String: Any] = [
        "client": arguments.client.rawValue, "workload": arguments.workload.rawValue,
        "operations": tally.operations, "bytes": tally.bytes, "seconds": seconds,
        "rate": rate, "unit": arguments.workload.unit,
        "rss_after_warmup_kib": residentAfterWarmUp, "peak_rss_kib": ProcessMemory.peakResidentKiB ?? -1,
    ]
    if let cacheBytesAtEnd { line["cache_bytes"] = cacheBytesAtEnd }
    let json = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: json, as: UTF8.self))
} catch let error as Unsupported {
    try? FileManager.default.removeItem(at: cacheDirectory)
    FileHandle.standardError.write(
        Data("\(arguments.client.rawValue) \(arguments.workload.rawValue) not run: \(error)\n".utf8))
    exit(69)
} catch {
    try? FileManager.default.removeItem(at: cacheDirectory)
    FileHandle.standardError.write(
        Data("\(arguments.client.rawValue) \(arguments.workload.rawValue) failed: \(error)\n".utf8))
    exit(1)
}
