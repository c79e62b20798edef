#if AsyncHTTPClient
import Foundation

extension AsyncHTTPClientExchange {
    /// One AsyncHTTPClient request as Ferry sees it, a plain value tested alone: the head continuation is resumed
    /// once; body parts queue up to a high watermark, past which the engine's read waits (`Promise`) until the
    /// consumer drained below the low watermark; the first end or stop wins.
    struct StateMachine<HeadContinuation, Consumer, Promise, Task> {
        private enum Phase {
            case idle
            case awaitingHead(HeadContinuation)
            case streaming
            case ended(FerryError?)
        }

        static var highWatermark: Int { 1 << 20 }
        static var lowWatermark: Int { 256 << 10 }

        private var phase = Phase.idle
        private var chunks: [Data] = []
        private var first = 0
        private var buffered = 0
        private var consumer: Consumer?
        private var paused: Promise?
        private(set) var task: Task?

        /// The request starts; its head will resume `continuation`.
        mutating func start(_ continuation: HeadContinuation) -> FerryError? {
            if case .ended(let error) = phase { return error ?? FerryError(.cancelled) }
            phase = .awaitingHead(continuation)
            return nil
        }

        /// The engine's task handle; returns `true` when the request was stopped meanwhile (cancel it).
        mutating func attach(_ task: Task) -> Bool {
            guard case .ended(let error) = phase else {
                self.task = task
                return false
            }
            return error != nil
        }

        /// The head arrived: the continuation to resume with it.
        mutating func receiveHead() -> HeadContinuation? {
            guard case .awaitingHead(let continuation) = phase else { return nil }
            phase = .streaming
            return continuation
        }

        enum PartAction {
            /// Let the engine read on; resume this consumer, if one waits.
            case proceed(Consumer?)
            /// Make the engine wait for the promise, which the consumer fulfils; resume this consumer, if one waits.
            case pause(Consumer?, Promise)
            /// Ferry no longer wants the body.
            case drop
        }

        /// A body part arrived. `makePromise` is called only when the engine must wait.
        mutating func receive(_ part: Data, makePromise: () -> Promise) -> PartAction {
            guard case .streaming = phase else { return .drop }
            chunks.append(part)
            buffered += part.count
            let waiting = consumer
            consumer = nil
            guard buffered >= Self.highWatermark else { return .proceed(waiting) }
            let promise = makePromise()
            paused = promise
            return .pause(waiting, promise)
        }

        enum EndAction {
            case none
            /// Fail the head continuation with the error.
            case failHead(HeadContinuation, FerryError)
            /// Resume the consumer (it reads the end); fail a pending promise.
            case endBody(Consumer?, Promise?)
        }

        /// The body ended (`nil`), or the request failed or was stopped (`error`). The first end counts, and
        /// forgets the engine's task (which holds this request's delegate).
        mutating func end(_ error: FerryError?) -> EndAction {
            if case .ended = phase {} else { task = nil }
            switch phase {
            case .idle:
                phase = .ended(error)
                return .none
            case .awaitingHead(let continuation):
                let failure = error ?? FerryError(.transport(.invalidResponse))
                phase = .ended(failure)
                return .failHead(continuation, failure)
            case .streaming:
                phase = .ended(error)
                if error != nil { chunks = []; first = 0; buffered = 0 }
                defer { consumer = nil; paused = nil }
                return .endBody(consumer, paused)
            case .ended:
                return .none
            }
        }

        enum NextAction {
            /// A chunk; fulfil the promise, if any, so the engine reads on.
            case chunk(Data, Promise?)
            case end
            case fail(FerryError)
            case wait
        }

        /// The consumer asks for the next chunk.
        mutating func next() -> NextAction {
            if first < chunks.count {
                let chunk = chunks[first]
                first += 1
                buffered -= chunk.count
                if first == chunks.count {
                    chunks.removeAll(keepingCapacity: true)
                    first = 0
                }
                var resume: Promise?
                if buffered < Self.lowWatermark {
                    resume = paused
                    paused = nil
                }
                return .chunk(chunk, resume)
            }
            switch phase {
            case .ended(nil): return .end
            case .ended(let error?): return .fail(error)
            case .idle, .awaitingHead, .streaming: return .wait
            }
        }

        /// The consumer waits; `false` when something arrived meanwhile (ask again).
        mutating func wait(_ consumer: Consumer) -> Bool {
            if first < chunks.count { return false }
            if case .ended = phase { return false }
            self.consumer = consumer
            return true
        }
    }
}
#endif
