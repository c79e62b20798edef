import Foundation

extension StreamBuffer {
    /// The state of a ``StreamBuffer``: the chunks held in memory, the bytes in the spill file, how the stream ended and
    /// whether the consumer waits. Every method runs under the buffer's lock and returns what the buffer does once the
    /// lock is released: resume the consumer, create, write, read or remove the spill file, or throw.
    ///
    /// The machine performs no I/O. It deals in byte counts and offsets, and holds the spill file and the waiting
    /// consumer as opaque `Spill` and `Consumer` values, so tests drive it without a file system or tasks.
    ///
    /// Spill file I/O runs outside the lock. That is safe because there is one producer and one consumer:
    /// - the producer reserves the bytes it is about to write (``push(_:)``), writes them, then commits them
    ///   (``spillWritten(to:)``) before its next push;
    /// - the consumer reads committed bytes only, one read at a time (``next()``, then ``spillRead(count:)``);
    /// - the file is removed only while neither a write nor a read is in flight: an event that would remove it while one
    ///   is (``close()`` from another thread) leaves the removal to whichever finishes last.
    struct StateMachine<Spill, Consumer> {
        /// What ``StreamBuffer/push(_:)`` does with a chunk.
        enum PushAction {
            /// The chunk is held in memory; resume the consumer, if one was waiting.
            case buffered(resumeConsumer: Consumer?)
            /// Create a spill file and write the chunk to it, then report ``spillWritten(to:)`` or
            /// ``spillWriteFailed(_:file:)``.
            case createSpillAndWrite
            /// Append the chunk to the spill file, then report ``spillWritten(to:)`` or ``spillWriteFailed(_:file:)``.
            case writeSpill(Spill)
            /// Throw: the buffer is full, or an earlier push failed.
            case fail(FerryError)
            /// Ignore the chunk: it is empty, the stream ended or the consumer went away.
            case drop
        }

        /// What ``StreamBuffer/next()`` does.
        enum NextAction {
            /// Return the chunk.
            case chunk(Data)
            /// Read `count` bytes of the spill file at `offset`, then report ``spillRead(count:)`` or
            /// ``spillReadFailed()``.
            case readSpill(Spill, offset: Int64, count: Int)
            /// Return `nil`: the body is complete and every byte was read.
            case end
            /// Throw: the stream failed and every byte before the failure was read, or the consumer went away.
            case fail(FerryError)
            /// Wait with ``consumerWaits(_:isCancelled:)``, then ask again.
            case wait
        }

        /// What a consumer about to wait does.
        enum WaitAction {
            /// The consumer is stored; a later action resumes it.
            case wait
            /// Resume the consumer at once: something changed since ``next()`` said to wait, or its task is cancelled.
            case resume(Consumer)
        }

        /// What the buffer does after the stream ended, the consumer went away or spill I/O finished.
        enum ReleaseAction {
            /// Nothing.
            case none
            /// Resume the waiting consumer.
            case resumeConsumer(Consumer)
            /// Remove the spill file.
            case removeSpill(Spill)
            /// Remove the spill file and resume the waiting consumer.
            case removeSpillAndResumeConsumer(Spill, Consumer)
        }

        /// The spill file and the bytes in it.
        private struct SpillState {
            /// The file; `nil` while the producer creates it.
            var file: Spill?
            /// Bytes written and readable.
            var written: Int64 = 0
            /// Bytes the consumer has read.
            var read: Int64 = 0
            /// Bytes the producer is writing now.
            var writing: Int64 = 0
            /// Whether the consumer is reading now.
            var reading = false

            /// Bytes written and not read yet.
            var unread: Int64 { written - read }
            /// Whether no I/O is in flight.
            var isIdle: Bool { writing == 0 && !reading }
        }

        /// The most unread bytes held in memory.
        let capacity: Int64
        /// What happens past ``capacity``.
        let overflow: StreamOptions.OverflowPolicy
        /// The most bytes one spill read returns.
        let spillReadSize: Int

        /// The oldest unread chunks.
        private var memory = ChunkQueue()
        /// The newest unread bytes, when memory filled up; `nil` when there is no spill file.
        private var spill: SpillState?
        /// `nil` while the stream runs; then `.some(nil)` for a complete body, `.some(error)` for a failed one.
        private var end: FerryError??
        /// The error of the push that failed; every later push fails with it.
        private var failure: FerryError?
        /// Whether the consumer went away.
        private var closed = false
        /// The consumer waiting for a chunk.
        private var consumer: Consumer?

        /// Creates the state of an empty buffer.
        /// - Parameters:
        ///   - capacity: The most unread bytes held in memory; `Int64.max` for no limit.
        ///   - overflow: What happens past it.
        ///   - spillReadSize: The most bytes one read of the spill file returns.
        init(capacity: Int64, overflow: StreamOptions.OverflowPolicy, spillReadSize: Int = 256 << 10) {
            self.capacity = max(1, capacity)
            self.overflow = overflow
            self.spillReadSize = max(1, spillReadSize)
        }

        /// Bytes buffered and not read yet: in memory, in the spill file and being written to it.
        var bufferedByteCount: Int64 {
            guard !closed else { return 0 }
            return memory.byteCount + (spill.map { $0.unread + $0.writing } ?? 0)
        }

        /// Whether a consumer waits for a chunk.
        var isConsumerWaiting: Bool { consumer != nil }

        // MARK: Producer

        /// A chunk arrived: held in memory up to the capacity, else spilled or refused as the overflow policy says.
        /// - Parameter chunk: The chunk.
        /// - Returns: What to do with it.
        mutating func push(_ chunk: Data) -> PushAction {
            let count = Int64(chunk.count)
            guard count > 0, !closed, end == nil else { return .drop }
            if let failure { return .fail(failure) }
            if spill == nil, memory.byteCount == 0 || count <= capacity - memory.byteCount {
                memory.append(chunk)
                return .buffered(resumeConsumer: takeConsumerIfReady())
            }
            guard case .spillToDisk(let maximum) = overflow else {
                return fail(FerryError(.streamBufferOverflow(limit: capacity)))
            }
            let reserved = spill.map { $0.unread + $0.writing } ?? 0
            guard count <= maximum - reserved else {
                let (limit, overflowed) = capacity.addingReportingOverflow(maximum)
                return fail(FerryError(.streamBufferOverflow(limit: overflowed ? .max : limit)))
            }
            guard var spill else {
                spill = SpillState(writing: count)
                return .createSpillAndWrite
            }
            guard let file = spill.file, spill.writing == 0 else {
                preconditionFailure("a StreamBuffer has one producer")
            }
            spill.writing = count
            self.spill = spill
            return .writeSpill(file)
        }

        /// The chunk of the last ``PushAction/createSpillAndWrite`` or ``PushAction/writeSpill(_:)`` is in the file.
        /// - Parameter file: The spill file, created or written.
        /// - Returns: Resume the consumer waiting for it; or remove the file when the consumer went away meanwhile.
        mutating func spillWritten(to file: Spill) -> ReleaseAction {
            guard var spill, spill.writing > 0 else { preconditionFailure("no spill write in flight") }
            spill.file = file
            spill.written += spill.writing
            spill.writing = 0
            self.spill = spill
            return release()
        }

        /// Creating or writing the spill file failed: the chunk is lost, so every later push fails with the same error.
        /// - Parameters:
        ///   - error: The error.
        ///   - file: The file, when it was created.
        /// - Returns: Remove the file when nothing in it is left to read; resume a consumer waiting for the write.
        mutating func spillWriteFailed(_ error: FerryError, file: Spill?) -> ReleaseAction {
            guard var spill, spill.writing > 0 else { preconditionFailure("no spill write in flight") }
            if spill.file == nil { spill.file = file }
            spill.writing = 0
            self.spill = spill
            if failure == nil { failure = error }
            return release()
        }

        /// Ends the stream; the first call wins.
        /// - Parameter error: `nil` when the body is complete, else the error the consumer gets after the buffered bytes.
        /// - Returns: Resume the waiting consumer.
        mutating func finish(_ error: FerryError?) -> ReleaseAction {
            if end == nil { end = .some(error) }
            return release()
        }

        // MARK: Consumer

        /// The consumer asks for the next chunk: memory first, then the spill file, then the end.
        /// - Returns: What to hand to the consumer, or that it waits.
        mutating func next() -> NextAction {
            if closed { return .fail(FerryError(.cancelled)) }
            if let chunk = memory.popFirst() { return .chunk(chunk) }
            if var spill, let file = spill.file, spill.unread > 0 {
                precondition(!spill.reading, "a StreamBuffer has one consumer")
                spill.reading = true
                self.spill = spill
                return .readSpill(file, offset: spill.read, count: Int(min(spill.unread, Int64(spillReadSize))))
            }
            if let spill, spill.writing > 0 { return .wait }
            switch end {
            case .some(nil): return .end
            case .some(let error?): return .fail(error)
            case nil: return .wait
            }
        }

        /// The consumer read `count` bytes of the spill file.
        /// - Parameter count: How many; no more than ``NextAction/readSpill(_:offset:count:)`` asked for.
        /// - Returns: Remove the file once it was read to its end, or when the consumer went away meanwhile.
        mutating func spillRead(count: Int) -> ReleaseAction {
            guard var spill, spill.reading else { preconditionFailure("no spill read in flight") }
            spill.read += min(Int64(count), spill.unread)
            spill.reading = false
            self.spill = spill
            return release()
        }

        /// Reading the spill file failed; the next ``next()`` reads the same bytes again.
        /// - Returns: Remove the file when the consumer went away meanwhile.
        mutating func spillReadFailed() -> ReleaseAction {
            spillRead(count: 0)
        }

        /// The consumer is about to wait for what ``next()`` did not have.
        /// - Parameters:
        ///   - consumer: What resumes it.
        ///   - isCancelled: Whether its task is cancelled; then it does not wait.
        /// - Returns: Whether it waits or is resumed at once.
        mutating func consumerWaits(_ consumer: Consumer, isCancelled: Bool) -> WaitAction {
            precondition(self.consumer == nil, "a StreamBuffer has one consumer")
            if isCancelled || canConsumerProceed { return .resume(consumer) }
            self.consumer = consumer
            return .wait
        }

        /// The waiting consumer's task was cancelled.
        /// - Returns: Resume it, if it was still waiting.
        mutating func consumerCancelled() -> ReleaseAction {
            guard let consumer else { return .none }
            self.consumer = nil
            return .resumeConsumer(consumer)
        }

        /// The consumer went away: drops the buffered bytes; later pushes are ignored.
        /// - Returns: Remove the spill file (unless I/O on it is in flight: then its end does) and resume a waiting
        ///   consumer.
        mutating func close() -> ReleaseAction {
            closed = true
            memory = ChunkQueue()
            return release()
        }

        // MARK: Helpers

        /// Fails this push and every later one with `error`.
        private mutating func fail(_ error: FerryError) -> PushAction {
            failure = error
            return .fail(error)
        }

        /// Whether ``next()`` would not say to wait.
        private var canConsumerProceed: Bool {
            if closed || !memory.isEmpty { return true }
            if let spill, spill.file != nil, spill.unread > 0 { return true }
            return end != nil && (spill?.writing ?? 0) == 0
        }

        /// Takes the waiting consumer when it can go on.
        private mutating func takeConsumerIfReady() -> Consumer? {
            guard canConsumerProceed, let consumer else { return nil }
            self.consumer = nil
            return consumer
        }

        /// Takes the spill file when no I/O is in flight and nothing in it is left to read (or the consumer went away),
        /// and the consumer when it can go on.
        private mutating func release() -> ReleaseAction {
            var removed: Spill?
            if let spill, spill.isIdle, closed || spill.unread == 0 {
                removed = spill.file
                self.spill = nil
            }
            switch (removed, takeConsumerIfReady()) {
            case (nil, nil): return .none
            case (nil, let consumer?): return .resumeConsumer(consumer)
            case (let file?, nil): return .removeSpill(file)
            case (let file?, let consumer?): return .removeSpillAndResumeConsumer(file, consumer)
            }
        }
    }

    /// The chunks held in memory, oldest first.
    private struct ChunkQueue {
        /// The chunks; those before `first` were read.
        private var chunks: [Data] = []
        /// The index of the oldest unread chunk.
        private var first = 0
        /// The bytes in the queue.
        private(set) var byteCount: Int64 = 0

        /// Whether the queue holds no chunk.
        var isEmpty: Bool { first == chunks.count }

        /// Adds a chunk at the end.
        mutating func append(_ chunk: Data) {
            chunks.append(chunk)
            byteCount += Int64(chunk.count)
        }

        /// Removes and returns the oldest chunk.
        mutating func popFirst() -> Data? {
            guard first < chunks.count else { return nil }
            let chunk = chunks[first]
            first += 1
            byteCount -= Int64(chunk.count)
            if first == chunks.count {
                chunks.removeAll(keepingCapacity: true)
                first = 0
            } else if first >= 64 && first * 2 >= chunks.count {
                chunks.removeFirst(first)
                first = 0
            }
            return chunk
        }
    }
}
