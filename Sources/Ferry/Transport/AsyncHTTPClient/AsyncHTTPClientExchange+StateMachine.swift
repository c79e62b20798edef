#if AsyncHTTPClient
import Foundation

extension AsyncHTTPClientExchange {
    /// One AsyncHTTPClient request as Ferry sees it, a plain value tested alone: the head continuation is resumed
    /// once; body parts queue up to a high watermark, past which the engine's read waits (`Promise`) until the
    /// consumer drained below the low watermark; the first end or stop wins.
    ///
    /// Wake-ups that the event loop causes are not done at once but gathered into one ``flush()`` at the end of the
    /// event loop's tick: a small response whose head, body and end arrive in one read wakes the pipeline once, not
    /// three times.
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
        private var pendingHead: (HeadContinuation, HTTPResponse)?
        private var chunks: [Data] = []
        private var first = 0
        private var buffered = 0
        private var consumer: Consumer?
        private var paused: Promise?
        private var flushScheduled = false
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

        /// Whether the caller must schedule a ``flush()`` (none is scheduled yet).
        private mutating func needsFlush() -> Bool {
            defer { flushScheduled = true }
            return !flushScheduled
        }

        /// The head arrived (on the event loop); returns whether to schedule a flush.
        mutating func receiveHead(_ head: HTTPResponse) -> Bool {
            guard case .awaitingHead(let continuation) = phase else { return false }
            phase = .streaming
            pendingHead = (continuation, head)
            return needsFlush()
        }

        enum PartAction {
            /// Let the engine read on; schedule a flush when `true`.
            case proceed(flush: Bool)
            /// Make the engine wait for the promise, which the consumer fulfils; schedule a flush when `true`.
            case pause(Promise, flush: Bool)
            /// Ferry no longer wants the body.
            case drop
        }

        /// A body part arrived (on the event loop). `makePromise` is called only when the engine must wait.
        mutating func receive(_ part: Data, makePromise: () -> Promise) -> PartAction {
            guard case .streaming = phase else { return .drop }
            chunks.append(part)
            buffered += part.count
            let flush = consumer != nil && needsFlush()
            guard buffered >= Self.highWatermark else { return .proceed(flush: flush) }
            let promise = makePromise()
            paused = promise
            return .pause(promise, flush: flush)
        }

        enum EndAction {
            case none
            /// Fail the head continuation with the error.
            case failHead(HeadContinuation, FerryError)
            /// Schedule a flush when `true` (the consumer, or a head still to hand on, reads the end then); fail a
            /// pending promise.
            case flush(Bool, Promise?)
            /// Resume these at once (a stop from outside the event loop); fail a pending promise.
            case resume((HeadContinuation, HTTPResponse)?, Consumer?, Promise?)
        }

        /// The body ended (`nil`), or the request failed or was stopped (`error`); `onEventLoop` when the engine
        /// reported it. The first end counts, and forgets the engine's task (which holds this request's delegate).
        mutating func end(_ error: FerryError?, onEventLoop: Bool) -> EndAction {
            if case .ended = phase { return .none }
            task = nil
            switch phase {
            case .idle:
                phase = .ended(error)
                return .none
            case .awaitingHead(let continuation):
                let failure = error ?? FerryError(.transport(.invalidResponse))
                phase = .ended(failure)
                return .failHead(continuation, failure)
            case .streaming, .ended:
                phase = .ended(error)
                // The engine's own failure (a reset mid-body) comes after the bytes that did arrive: those are
                // read first (a download keeps them for resuming). A stop from outside drops them.
                if error != nil && !onEventLoop {
                    chunks = []
                    first = 0
                    buffered = 0
                }
                let promise = paused
                paused = nil
                if onEventLoop {
                    return .flush((consumer != nil || pendingHead != nil) && needsFlush(), promise)
                }
                defer {
                    consumer = nil
                    pendingHead = nil
                }
                return .resume(pendingHead, consumer, promise)
            }
        }

        /// The event loop's tick is over: the head to hand on and the consumer to wake, if any.
        mutating func flush() -> ((HeadContinuation, HTTPResponse)?, Consumer?) {
            flushScheduled = false
            defer {
                pendingHead = nil
                consumer = nil
            }
            return (pendingHead, consumer)
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
