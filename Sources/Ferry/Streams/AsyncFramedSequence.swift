import Foundation

/// A streamed body cut into frames as it arrives: lines, server-sent events or newline-delimited JSON values. One
/// sequence for every framing; ``AsyncDataLineSequence``, ``AsyncServerSentEventSequence`` and
/// ``AsyncJSONLineSequence`` name its three uses. Make one with `lines()`, `serverSentEvents()` or `jsonLines(of:)` on
/// any sequence of `Data` chunks (a ``StreamTask``'s ``StreamTask/bytes``).
///
/// Frames are cut wherever the chunks of the base sequence are cut. Errors of the base pass through unchanged; a
/// frame that cannot be made (a line too long, invalid UTF-8, a line that does not decode) ends the iteration with a
/// ``FerryError`` with reason ``FerryError/Reason/serializationFailed``, after the frames completed before it.
public struct AsyncFramedSequence<Base: AsyncSequence, Element>: AsyncSequence where Base.Element == Data {
    private let base: Base
    private let makeFramer: @Sendable () -> any StreamFramer<Element>

    init(base: Base, framer: @escaping @Sendable () -> any StreamFramer<Element>) {
        self.base = base
        self.makeFramer = framer
    }

    /// Creates an iterator over the frames.
    /// - Returns: A new iterator, with a framer of its own.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), framer: makeFramer())
    }

    /// Iterates over the frames of a streamed body, pulling chunks from the base sequence as needed.
    ///
    /// Frames completed by one chunk are all handed out before the next chunk is pulled. Once the base ends, the
    /// framer finishes once and its last frames are handed out. After the end, and after any error, ``next()``
    /// returns `nil`.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private var framer: any StreamFramer<Element>
        private var frames: [Element] = []
        private var nextFrameIndex = 0
        private var isFinished = false

        init(base: Base.AsyncIterator, framer: any StreamFramer<Element>) {
            self.base = base
            self.framer = framer
        }

        /// Returns the next frame.
        /// - Returns: The next frame, or `nil` when the body has ended.
        /// - Throws: The base sequence's error unchanged, or a ``FerryError`` when the bytes cannot be framed.
        public mutating func next() async throws -> Element? {
            while nextFrameIndex == frames.count {
                guard !isFinished else { return nil }
                if let failure = framer.failure {
                    stop()
                    throw failure
                }
                frames.removeAll(keepingCapacity: true)
                nextFrameIndex = 0
                do {
                    if let chunk = try await base.next() {
                        frames = try framer.frames(from: chunk)
                    } else {
                        isFinished = true
                        frames = try framer.finalFrames()
                    }
                } catch {
                    stop()
                    throw error
                }
            }
            defer { nextFrameIndex += 1 }
            return frames[nextFrameIndex]
        }

        private mutating func stop() {
            isFinished = true
            frames = []
            nextFrameIndex = 0
        }
    }
}

extension AsyncFramedSequence: Sendable where Base: Sendable {}

/// The lines of a streamed body, decoded as UTF-8.
///
/// Lines end with CR, LF or CRLF, wherever the chunks of the base sequence are cut; terminators are not part of the
/// lines. A last line without a terminator is still a line. Invalid UTF-8 or a line longer than the limit ends the
/// iteration with ``FerryError/Reason/serializationFailed`` and a ``StreamFramingError``.
public typealias AsyncDataLineSequence<Base: AsyncSequence> = AsyncFramedSequence<Base, String>
where Base.Element == Data

/// The events of a streamed `text/event-stream` body.
///
/// The body is interpreted as the WHATWG HTML standard describes: invalid UTF-8 becomes U+FFFD, comments and unknown
/// fields are ignored, an empty line dispatches the event, and an event the body ends before dispatching is
/// discarded.
public typealias AsyncServerSentEventSequence<Base: AsyncSequence> = AsyncFramedSequence<Base, ServerSentEvent>
where Base.Element == Data

/// The values of a streamed newline-delimited JSON body (NDJSON, JSON Lines), one per line.
///
/// Lines end with CR, LF or CRLF; empty and whitespace-only lines are skipped. A line that does not decode ends the
/// iteration with ``FerryError/Reason/serializationFailed`` and the decoder's error as the underlying error.
public typealias AsyncJSONLineSequence<Base: AsyncSequence, Value: Decodable & Sendable> = AsyncFramedSequence<
    Base, Value
>
where Base.Element == Data
