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

    /// POSTs `chunks` to `url` (the upload sink) as a body read from the sequence as it is sent, with its length
    /// known; returns the byte count the sink reports. By default ``Unsupported``.
    func streamUpload(_ chunks: RepeatedChunks, to url: URL) async throws -> Int64

    /// Releases the client (not timed).
    func shutdown() async
}

extension HTTPBenchClient {
    func streamUpload(_ chunks: RepeatedChunks, to url: URL) async throws -> Int64 {
        throw Unsupported("stream-upload is measured for Ferry and raw AsyncHTTPClient only")
    }
}

/// `count` copies of one chunk (256 KiB by default, the size Ferry reads a file body in), as an `AsyncSequence` of
/// `Data`: a body an application produces as it goes, with no file or network behind it, so that the workload
/// measures the clients.
struct RepeatedChunks: AsyncSequence, Sendable {
    let chunk: Data
    let count: Int

    init(size: Int, count: Int) {
        chunk = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 % 251) })
        self.count = count
    }

    /// The bytes in all.
    var totalBytes: Int64 { Int64(count) * Int64(chunk.count) }

    struct AsyncIterator: AsyncIteratorProtocol {
        let chunk: Data
        var left: Int

        mutating func next() async -> Data? {
            guard left > 0 else { return nil }
            left -= 1
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunk: chunk, left: count) }
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
