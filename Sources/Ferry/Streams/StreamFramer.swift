import Foundation

/// Cuts chunks of bytes, split anywhere, into frames: lines, events, ….
protocol StreamFramer {
    /// What the framer produces.
    associatedtype Frame

    /// Adds a chunk and returns the frames it completes.
    /// - Parameter chunk: The next bytes of the stream.
    /// - Returns: The completed frames, in order.
    /// - Throws: ``FerryError`` when the bytes cannot be framed.
    mutating func frames(from chunk: Data) throws(FerryError) -> [Frame]

    /// Ends the stream.
    /// - Returns: The frames the end of the stream completes.
    mutating func finalFrames() -> [Frame]

    /// The error that stopped the framer after it returned the frames completed before the failure, if any.
    var failure: FerryError? { get }
}

extension LineSplitter: StreamFramer {
    mutating func frames(from chunk: Data) throws(FerryError) -> [Data] {
        try append(chunk)
    }

    mutating func finalFrames() -> [Data] {
        finish().map { [$0] } ?? []
    }
}

extension ServerSentEventParser: StreamFramer {
    mutating func frames(from chunk: Data) throws(FerryError) -> [ServerSentEvent] {
        try append(chunk)
    }

    mutating func finalFrames() -> [ServerSentEvent] {
        finish()
    }
}
