import Foundation

/// The values of a streamed newline-delimited JSON body (NDJSON, JSON Lines), one per line.
///
/// Lines end with CR, LF or CRLF; empty and whitespace-only lines are skipped. Make one with
/// `jsonLines(of:decoder:maximumLineLength:)` on a sequence of `Data` chunks.
public struct AsyncJSONLineSequence<Base: AsyncSequence, Value: Decodable & Sendable>: AsyncSequence
where Base.Element == Data {
    /// A decoded line.
    public typealias Element = Value

    private let base: Base
    private let decoder: any DataDecoder
    private let maximumLineLength: Int

    init(base: Base, decoder: any DataDecoder, maximumLineLength: Int) {
        self.base = base
        self.decoder = decoder
        self.maximumLineLength = maximumLineLength
    }

    /// Creates an iterator over the values.
    /// - Returns: A new iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), decoder: decoder, maximumLineLength: maximumLineLength)
    }

    /// Iterates over the values of a streamed body.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var framing: FramingIterator<Base.AsyncIterator, LineSplitter>
        private let decoder: any DataDecoder

        init(base: Base.AsyncIterator, decoder: any DataDecoder, maximumLineLength: Int) {
            framing = FramingIterator(base: base, framer: LineSplitter(maximumLineLength: maximumLineLength))
            self.decoder = decoder
        }

        /// Returns the next value, pulling chunks from the base sequence as needed.
        /// - Returns: The next value, or `nil` when the body has ended.
        /// - Throws: The base sequence's error unchanged, or a ``FerryError`` with reason
        ///   ``FerryError/Reason/serializationFailed`` whose underlying error is the decoder's error when a line does
        ///   not decode, or ``StreamFramingError/lineTooLong(limit:)`` when a line is too long.
        public mutating func next() async throws -> Value? {
            while let line = try await framing.next() {
                guard !Self.isBlank(line) else { continue }
                do {
                    return try decoder.decode(Value.self, from: line)
                } catch {
                    framing.stop()
                    throw FerryError(.serializationFailed, body: line, underlyingError: error)
                }
            }
            return nil
        }

        /// Whether a line holds nothing but JSON whitespace.
        private static func isBlank(_ line: Data) -> Bool {
            line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        }
    }
}

extension AsyncJSONLineSequence: Sendable where Base: Sendable {}
