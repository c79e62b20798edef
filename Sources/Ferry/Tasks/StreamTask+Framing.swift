import Foundation

extension StreamTask {
    /// The body split into lines (CR, LF or CRLF), decoded as UTF-8.
    public var lines: AsyncDataLineSequence<ByteStream> { bytes.lines() }

    /// The body parsed as server-sent events (`text/event-stream`).
    public var serverSentEvents: AsyncServerSentEventSequence<ByteStream> { bytes.serverSentEvents() }

    /// The body parsed as newline-delimited JSON, one value a line.
    /// - Parameters:
    ///   - type: The type of each line.
    ///   - decoder: The decoder.
    /// - Returns: The values.
    public func jsonLines<Line: Decodable & Sendable>(
        of type: Line.Type, decoder: some DataDecoder = JSONDecoder()
    )
        -> AsyncJSONLineSequence<ByteStream, Line>
    {
        bytes.jsonLines(of: type, decoder: decoder)
    }
}
