import Foundation

extension AsyncSequence where Element == Data {
    /// Returns the lines of this byte stream, decoded as UTF-8.
    ///
    /// Lines end with CR, LF or CRLF, wherever the chunks are cut.
    /// - Parameter maximumLineLength: The longest line accepted, in bytes, not counting its terminator; 1 MiB
    ///   unless given.
    /// - Returns: A sequence of lines, without their terminators.
    public func lines(maximumLineLength: Int = 1 << 20) -> AsyncDataLineSequence<Self> {
        AsyncFramedSequence(base: self) { TextLineFramer(lines: LineSplitter(maximumLineLength: maximumLineLength)) }
    }

    /// Returns the server-sent events of this `text/event-stream` byte stream.
    /// - Parameter maximumLineLength: The longest line accepted, in bytes, not counting its terminator; 1 MiB
    ///   unless given.
    /// - Returns: A sequence of events.
    public func serverSentEvents(maximumLineLength: Int = 1 << 20) -> AsyncServerSentEventSequence<Self> {
        AsyncFramedSequence(base: self) { ServerSentEventParser(maximumLineLength: maximumLineLength) }
    }

    /// Returns the values of this newline-delimited JSON byte stream, one per non-blank line.
    /// - Parameters:
    ///   - type: The type each line decodes to.
    ///   - decoder: The decoder for each line.
    ///   - maximumLineLength: The longest line accepted, in bytes, not counting its terminator; 1 MiB unless given.
    /// - Returns: A sequence of decoded values.
    public func jsonLines<Value: Decodable & Sendable>(
        of type: Value.Type,
        decoder: some DataDecoder = JSONDecoder(),
        maximumLineLength: Int = 1 << 20
    ) -> AsyncJSONLineSequence<Self, Value> {
        AsyncFramedSequence(base: self) {
            JSONLineFramer<Value>(lines: LineSplitter(maximumLineLength: maximumLineLength), decoder: decoder)
        }
    }
}
