import Foundation

/// The adapter between a transport that pushes a response body (URLSession's delegate callbacks, on one serial
/// queue: a single producer) and the one consumer that pulls it.
///
/// Up to ``StreamOptions/bufferSize`` unread bytes are held in memory; past it the ``StreamOptions/overflow``
/// policy either writes the excess to a temporary ``SpillFile`` or fails the push. Once a spill file exists every
/// new chunk goes to it until the consumer has read it to its end, so order is kept: memory holds the oldest bytes,
/// the file the newest. The file is deleted once read to its end, when the consumer goes away (``close()``) and on
/// deinit. A `bufferSize` of `Int.max` with ``StreamOptions/OverflowPolicy/fail`` buffers without limit.
///
/// The state is a ``StreamBuffer/StateMachine`` behind a lock. This class applies the actions it returns after the
/// lock is released: it resumes the consumer, and creates, appends to, reads and removes the spill file. File I/O
/// outside the lock is safe because there is one producer and one consumer; the state machine says why.
final class StreamBuffer: Sendable {
    /// The state machine, with the spill file and the consumer's continuation.
    private typealias Machine = StateMachine<SpillFile, UnsafeContinuation<Void, Never>>

    /// The state, behind the lock.
    private let state: Locked<Machine>
    /// Where spill files go.
    private let spillDirectory: URL

    /// Creates an empty buffer.
    /// - Parameters:
    ///   - options: The memory capacity and what happens past it.
    ///   - spillDirectory: Where spill files go; the temporary directory by default.
    init(options: StreamOptions, spillDirectory: URL = FileManager.default.temporaryDirectory) {
        state = Locked(Machine(capacity: Int64(options.bufferSize), overflow: options.overflow))
        self.spillDirectory = spillDirectory
    }

    /// Deletes the spill file, if there is one.
    deinit {
        apply(state.withLock { $0.close() })
    }

    /// Bytes buffered and not read yet (memory and spill file), for tests and metrics.
    var bufferedByteCount: Int64 { state.withLock { $0.bufferedByteCount } }

    /// Whether the consumer waits for a chunk, for tests.
    var isConsumerWaiting: Bool { state.withLock { $0.isConsumerWaiting } }

    // MARK: Producer

    /// Adds a chunk; never waits. Call from one producer at a time. Ignored after ``finish(_:)`` or ``close()``.
    /// - Parameter chunk: The bytes.
    /// - Throws: ``FerryError/Reason/streamBufferOverflow(limit:)`` when the buffer is full under the failing
    ///   policy or the spill file reached its limit; ``FerryError/Reason/fileSystemFailed(_:)`` when spilling fails.
    ///   The chunk is then lost and every later push throws the same error.
    func push(_ chunk: Data) throws(FerryError) {
        switch state.withLock({ $0.push(chunk) }) {
        case .buffered(let consumer):
            consumer?.resume()
        case .createSpillAndWrite:
            let file: SpillFile
            do throws(FerryError) {
                file = try SpillFile.create(in: spillDirectory)
            } catch {
                apply(state.withLock { $0.spillWriteFailed(error, file: nil) })
                throw error
            }
            try write(chunk, to: file)
        case .writeSpill(let file):
            try write(chunk, to: file)
        case .fail(let error):
            throw error
        case .drop:
            break
        }
    }

    /// Ends the stream; the first call wins.
    /// - Parameter error: `nil` when the body is complete, else the error the consumer gets after the buffered bytes.
    func finish(_ error: FerryError?) {
        apply(state.withLock { $0.finish(error) })
    }

    // MARK: Consumer

    /// The next chunk, in order. Call from one consumer at a time.
    /// - Returns: The chunk; `nil` at the end of a complete body.
    /// - Throws: The error that ended the stream, once every chunk before it was read; ``FerryError/Reason/cancelled``
    ///   after ``close()``, or when the consumer's task is cancelled while it waits;
    ///   ``FerryError/Reason/fileSystemFailed(_:)`` when reading the spill file fails.
    func next() async throws(FerryError) -> Data? {
        while true {
            switch state.withLock({ $0.next() }) {
            case .chunk(let chunk):
                return chunk
            case .readSpill(let file, let offset, let count):
                return try read(file, offset: offset, count: count)
            case .end:
                return nil
            case .fail(let error):
                throw error
            case .wait:
                guard !Task.isCancelled else { throw FerryError(.cancelled) }
                await waitForChange()
            }
        }
    }

    /// The consumer went away: drops the buffered bytes and deletes the spill file; later pushes are ignored.
    func close() {
        apply(state.withLock { $0.close() })
    }

    // MARK: Actions

    /// Appends a chunk to the spill file and reports how it went.
    private func write(_ chunk: Data, to file: SpillFile) throws(FerryError) {
        do throws(FerryError) {
            try file.append(chunk)
        } catch {
            apply(state.withLock { $0.spillWriteFailed(error, file: file) })
            throw error
        }
        apply(state.withLock { $0.spillWritten(to: file) })
    }

    /// Reads the spill file and reports how it went.
    private func read(_ file: SpillFile, offset: Int64, count: Int) throws(FerryError) -> Data {
        let data: Data
        do throws(FerryError) {
            data = try file.read(at: offset, count: count)
        } catch {
            apply(state.withLock { $0.spillReadFailed() })
            throw error
        }
        apply(state.withLock { $0.spillRead(count: data.count) })
        return data
    }

    /// Waits until a push, the end, ``close()`` or the task's cancellation lets the consumer go on.
    private func waitForChange() async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let action = state.withLock { $0.consumerWaits(continuation, isCancelled: Task.isCancelled) }
                if case .resume(let continuation) = action { continuation.resume() }
            }
        } onCancel: {
            apply(state.withLock { $0.consumerCancelled() })
        }
    }

    /// Resumes the consumer and removes the spill file, as the action says.
    private func apply(_ action: Machine.ReleaseAction) {
        switch action {
        case .none:
            break
        case .resumeConsumer(let consumer):
            consumer.resume()
        case .removeSpill(let file):
            file.remove()
        case .removeSpillAndResumeConsumer(let file, let consumer):
            file.remove()
            consumer.resume()
        }
    }
}
