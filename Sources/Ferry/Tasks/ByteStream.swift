import Foundation

/// A streamed response body as an `AsyncSequence` of `Data` chunks, handed on as they arrive (never one element
/// per byte).
///
/// It can be iterated once: a second iterator throws ``FerryError/Reason/invalidRequest(_:)``. The first `next()`
/// waits for the head and validates it. Errors are ``FerryError``s. Dropping the iterator before the end cancels
/// the transfer.
public struct ByteStream: AsyncSequence, Sendable {
    /// A chunk of the body.
    public typealias Element = Data

    let task: StreamTask

    /// Starts the one consumer.
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(consumer: Consumer(task: task, claimed: task.transfer.claimConsumer()))
    }

    /// Reads the body's chunks in order.
    public struct Iterator: AsyncIteratorProtocol {
        let consumer: Consumer

        /// The next chunk, or `nil` at the end of the body.
        /// - Throws: ``FerryError``.
        public mutating func next() async throws -> Data? {
            try await consumer.next()
        }
    }

    /// Owns the consumer side: validates the head first, cancels the transfer when dropped early.
    final class Consumer: Sendable {
        private let task: StreamTask
        private let claimed: Bool
        private let state = LockedBox(Phase.fresh)

        enum Phase { case fresh, streaming, ended }

        init(task: StreamTask, claimed: Bool) {
            self.task = task
            self.claimed = claimed
        }

        deinit {
            if claimed, state.value != .ended {
                task.transfer.cancel()
            }
        }

        func next() async throws(FerryError) -> Data? {
            guard claimed else {
                throw FerryError(
                    .invalidRequest(
                        "a streamed response body can be iterated only once (its progress or response, awaited with no "
                            + "consumer, reads and drops it)"))
            }
            switch state.value {
            case .ended:
                return nil
            case .fresh:
                do {
                    _ = try await task.head
                } catch {
                    state.value = .ended
                    throw error
                }
                state.value = .streaming
            case .streaming:
                break
            }
            do {
                let chunk = try await task.transfer.next()
                if chunk == nil { state.value = .ended }
                return chunk
            } catch {
                state.value = .ended
                throw error
            }
        }
    }
}
