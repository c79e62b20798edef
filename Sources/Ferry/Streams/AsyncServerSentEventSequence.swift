import Foundation

/// The events of a streamed `text/event-stream` body.
///
/// The body is interpreted as the WHATWG HTML standard describes: invalid UTF-8 becomes U+FFFD, comments and unknown
/// fields are ignored, an empty line dispatches the event, and an event the body ends before dispatching is
/// discarded. Make one with `serverSentEvents(maximumLineLength:)` on a sequence of `Data` chunks.
public struct AsyncServerSentEventSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == Data {
    /// An event.
    public typealias Element = ServerSentEvent

    private let base: Base
    private let maximumLineLength: Int

    init(base: Base, maximumLineLength: Int) {
        self.base = base
        self.maximumLineLength = maximumLineLength
    }

    /// Creates an iterator over the events.
    /// - Returns: A new iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), maximumLineLength: maximumLineLength)
    }

    /// Iterates over the events of a streamed body.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var framing: FramingIterator<Base.AsyncIterator, ServerSentEventParser>

        init(base: Base.AsyncIterator, maximumLineLength: Int) {
            let parser = ServerSentEventParser(maximumLineLength: maximumLineLength)
            framing = FramingIterator(base: base, framer: parser)
        }

        /// Returns the next event, pulling chunks from the base sequence as needed.
        /// - Returns: The next event, or `nil` when the body has ended.
        /// - Throws: The base sequence's error unchanged, or a ``FerryError`` with reason
        ///   ``FerryError/Reason/serializationFailed`` and ``StreamFramingError/lineTooLong(limit:)`` as the
        ///   underlying error when a line is too long.
        public mutating func next() async throws -> ServerSentEvent? {
            try await framing.next()
        }
    }
}

extension AsyncServerSentEventSequence: Sendable where Base: Sendable {}
