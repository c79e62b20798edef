import Foundation

/// Where the body of a final response goes once the pipeline has decided: memory (with its limit), nowhere (a
/// redirect's body), or a download file. Each destination takes the head, then the chunks, and has its own finish.
protocol BodyDestination: Sendable {
    /// What the destination yields when the body is complete.
    associatedtype Output: Sendable

    /// Takes the head before any chunk.
    /// - Parameters:
    ///   - head: The final response's head.
    ///   - length: The decoded body's declared length, if the head declares one (``Pipeline/Opened/bodyLength``).
    /// - Returns: The bytes already there (a resumed download's partial file), for progress.
    /// - Throws: ``FerryError`` when the body cannot be taken (too large, a range that does not continue).
    mutating func begin(_ head: HTTPResponse, length: Int64?) throws(FerryError) -> Int64

    /// Takes the next chunk.
    mutating func write(_ chunk: Data) throws(FerryError)

    /// Ends a complete body.
    mutating func finish() throws(FerryError) -> Output
}

/// Collects a body in memory up to a limit, with at most one copy per byte.
struct MemoryDestination: BodyDestination {
    let limit: Int64
    private(set) var body = Data()
    /// The declared length of a body that is not content-encoded.
    private var expected: Int64?

    init(limit: Int64) {
        self.limit = limit
    }

    mutating func begin(_ head: HTTPResponse, length: Int64?) throws(FerryError) -> Int64 {
        guard let length else { return 0 }
        if length > limit { throw FerryError(.bodyTooLarge(limit: limit), response: head) }
        expected = length
        return 0
    }

    mutating func write(_ chunk: Data) throws(FerryError) {
        guard Int64(body.count) + Int64(chunk.count) <= limit else {
            throw FerryError(.bodyTooLarge(limit: limit))
        }
        guard body.isEmpty else { return body.append(chunk) }
        if let expected, Int64(chunk.count) < expected {
            // More chunks to come: room for all of them at once.
            body.reserveCapacity(Int(expected))
            body.append(chunk)
        } else {
            body = chunk  // shares the chunk's storage: no copy, no allocation for a body that comes in one chunk
        }
    }

    mutating func finish() throws(FerryError) -> Data {
        body
    }
}

/// Reads a body that nobody wants (a redirect's) so the connection can be reused, up to a small limit.
struct DiscardDestination: BodyDestination {
    /// Past this many bytes the body is abandoned rather than read.
    static let limit: Int64 = 64 << 10
    private var count: Int64 = 0

    mutating func begin(_ head: HTTPResponse, length: Int64?) throws(FerryError) -> Int64 { 0 }

    mutating func write(_ chunk: Data) throws(FerryError) {
        count += Int64(chunk.count)
        if count > Self.limit { throw FerryError(.bodyTooLarge(limit: Self.limit)) }
    }

    mutating func finish() throws(FerryError) {}
}
