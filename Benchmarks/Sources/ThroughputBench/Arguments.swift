import Foundation

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The clients compared.
enum ClientKind: String, CaseIterable {
    case rawURLSession = "raw-urlsession"
    case rawAsyncHTTPClient = "raw-ahc"
    case ferryURLSession = "ferry-urlsession"
    case ferryAsyncHTTPClient = "ferry-ahc"
    /// Ferry on URLSession with an `HTTPCache` in memory.
    case ferryURLSessionCache = "ferry-urlsession-cache"
    /// Ferry on AsyncHTTPClient with an `HTTPCache` in memory.
    case ferryAsyncHTTPClientCache = "ferry-ahc-cache"
    /// Ferry on URLSession with an `HTTPCache` on disk (`DiskCacheStorage` in a new temporary directory).
    case ferryURLSessionDiskCache = "ferry-urlsession-disk-cache"
    /// Ferry on AsyncHTTPClient with an `HTTPCache` on disk.
    case ferryAsyncHTTPClientDiskCache = "ferry-ahc-disk-cache"
    /// AsyncHTTPClient's delegate API, small-request workloads only (see `RawAsyncHTTPClient.API`).
    case rawAsyncHTTPClientDelegate = "raw-ahc-delegate"
    /// AsyncHTTPClient's async API with the head awaited in a child task, small-request workloads only.
    case rawAsyncHTTPClientChildTask = "raw-ahc-child"
    /// Alamofire on URLSession; built only with FERRY_BENCH_PEERS (PeerClients.swift).
    case alamofire
    /// Get on URLSession; built only with FERRY_BENCH_PEERS (PeerClients.swift).
    case get
}

/// `ThroughputBench <client> <workload> --url URL [--count N] [--width N] [--file PATH] [--destination PATH]
///  [--expect BYTES] [--chunk BYTES] [--warmup URL]`
struct Arguments {
    let client: ClientKind
    let workload: Workload
    let options: WorkloadOptions
    /// Fetched once before timing, to open a connection to the same origin: the upload URL itself (the sink
    /// answers GET), else `/small.json` on the workload's origin.
    let warmUpURL: URL

    static let usage = """
        usage: ThroughputBench <client> <workload> --url URL [--count N] [--width N] [--file PATH]
                               [--destination PATH] [--expect BYTES] [--chunk BYTES] [--warmup URL]
          clients:   \(ClientKind.allCases.map(\.rawValue).joined(separator: ", "))
          workloads: \(Workload.allCases.map(\.rawValue).joined(separator: ", "))
        Prints one JSON line: client, workload, operations, bytes, seconds, rate, unit, RSS after warm-up and peak.
        """

    init(_ arguments: [String]) throws {
        guard arguments.count >= 2 else { throw UsageError(Self.usage) }
        guard let client = ClientKind(rawValue: arguments[0]) else {
            throw UsageError("unknown client \(arguments[0])")
        }
        guard let workload = Workload(rawValue: arguments[1]) else {
            throw UsageError("unknown workload \(arguments[1])")
        }
        var values: [String: String] = [:]
        var rest = arguments.dropFirst(2).makeIterator()
        while let key = rest.next() {
            guard key.hasPrefix("--"), let value = rest.next() else { throw UsageError("bad option \(key)") }
            values[String(key.dropFirst(2))] = value
        }
        guard let url = values["url"].flatMap(URL.init(string:)) else { throw UsageError("--url is required") }
        func int(_ key: String, _ fallback: Int) throws -> Int {
            guard let text = values[key] else { return fallback }
            guard let value = Int(text), value > 0 else { throw UsageError("--\(key) wants a positive integer") }
            return value
        }
        self.client = client
        self.workload = workload
        options = WorkloadOptions(
            url: url, count: try int("count", 1), width: try int("width", 64),
            file: values["file"].map { URL(fileURLWithPath: $0) },
            destination: values["destination"].map { URL(fileURLWithPath: $0) },
            expectedBytes: values["expect"].flatMap { Int64($0) }, chunkSize: try int("chunk", 256 << 10))
        if let warmUp = values["warmup"] {
            guard let warmUpURL = URL(string: warmUp) else { throw UsageError("bad --warmup") }
            self.warmUpURL = warmUpURL
        } else if workload == .upload || workload == .streamUpload {
            warmUpURL = url
        } else {
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            components.path = "/small.json"
            components.query = nil
            warmUpURL = components.url!
        }
    }
}
