import Foundation

/// The lines of a streamed body, decoded as UTF-8.
///
/// Lines end with CR, LF or CRLF, wherever the chunks of the base sequence are cut; terminators are not part of the
/// lines. A last line without a terminator is still a line. Make one with `lines(maximumLineLength:)` on a
/// sequence of `Data` chunks.
public struct AsyncDataLineSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == Data {
    /// A line, without its terminator.
    public typealias Element = String

    private let base: Base
    private let maximumLineLength: Int

    init(base: Base, maximumLineLength: Int) {
        self.base = base
        self.maximumLineLength = maximumLineLength
    }

    /// Creates an iterator over the lines.
    /// - Returns: A new iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), maximumLineLength: maximumLineLength)
    }

    /// Iterates over the lines of a streamed body.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var framing: FramingIterator<Base.AsyncIterator, LineSplitter>

        init(base: Base.AsyncIterator, maximumLineLength: Int) {
            framing = FramingIterator(base: base, framer: LineSplitter(maximumLineLength: maximumLineLength))
        }

        /// Returns the next line, pulling chunks from the base sequence as needed.
        /// - Returns: The next line, or `nil` when the body has ended.
        /// - Throws: The base sequence's error unchanged, or a ``FerryError`` with reason
        ///   ``FerryError/Reason/serializationFailed`` and a ``StreamFramingError`` underlying error when a line is
        ///   too long or is not valid UTF-8.
        public mutating func next() async throws -> String? {
            guard let line = try await framing.next() else { return nil }
            guard let text = String(validating: line, as: UTF8.self) else {
                framing.stop()
                throw FerryError.framing(.invalidUTF8)
            }
            return text
        }
    }
}

extension AsyncDataLineSequence: Sendable where Base: Sendable {}
