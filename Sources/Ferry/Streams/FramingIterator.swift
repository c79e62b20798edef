import Foundation

/// Pulls chunks from a base iterator through a framer and hands the frames out one at a time.
///
/// Frames completed by one chunk are all handed out before the next chunk is pulled. Once the base ends, the
/// framer finishes once and its last frames are handed out. A framer failure is thrown after the frames completed
/// before it. After the end, and after any error, ``next()`` returns `nil`. Errors from the base pass through
/// unchanged.
struct FramingIterator<Base: AsyncIteratorProtocol, Framer: StreamFramer> where Base.Element == Data {
    private var base: Base
    private var framer: Framer
    private var frames: [Framer.Frame] = []
    private var nextFrameIndex = 0
    private var isFinished = false

    /// Creates an iterator.
    /// - Parameters:
    ///   - base: Where the chunks come from.
    ///   - framer: What cuts them into frames.
    init(base: Base, framer: Framer) {
        self.base = base
        self.framer = framer
    }

    /// Returns the next frame, pulling chunks as needed.
    /// - Returns: The next frame, or `nil` at the end.
    /// - Throws: The base's error, or a ``FerryError`` from the framer.
    mutating func next() async throws -> Framer.Frame? {
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
                    frames = framer.finalFrames()
                }
            } catch {
                stop()
                throw error
            }
        }
        defer { nextFrameIndex += 1 }
        return frames[nextFrameIndex]
    }

    /// Ends the iteration: from now on ``next()`` returns `nil`.
    mutating func stop() {
        isFinished = true
        frames = []
        nextFrameIndex = 0
    }
}
