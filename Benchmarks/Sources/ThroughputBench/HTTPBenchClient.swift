import Foundation

/// What each workload asks of a client. Every client sends the same request headers (Ferry's defaults), checks the
/// status is 200 (as Ferry's default validation does) and returns what the caller needs to check the transfer.
protocol HTTPBenchClient: Sendable {
    /// GETs `url`, collects the body in memory and returns its size.
    func data(from url: URL) async throws -> Int

    /// GETs `url` and decodes its JSON body.
    func decode<Value: Decodable & Sendable>(_ type: Value.Type, from url: URL) async throws -> Value

    /// GETs `url` into the file at `destination` (which does not exist yet); returns the bytes written.
    func download(from url: URL, to destination: URL) async throws -> Int64

    /// POSTs the file at `file` to `url` (the upload sink) and returns the byte count the sink reports.
    func upload(file: URL, to url: URL) async throws -> Int64

    /// Releases the client (not timed).
    func shutdown() async
}

/// A non-200 answer: every client fails the same way.
struct UnexpectedStatus: Error, CustomStringConvertible {
    let status: Int
    var description: String { "unexpected status \(status)" }
}

/// What the upload sink answers.
struct UploadReceipt: Decodable {
    let bytes: Int64
    let chunked: Bool
}

/// A workload the client's library does not offer on this platform: ThroughputBench exits with 69 (EX_UNAVAILABLE)
/// and run-throughput.sh reports the pair as not run, not as failed.
struct Unsupported: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
