extension URLSessionCall {
    /// One URLSession task's life as Ferry sees it, a plain value tested alone: the head continuation is resumed
    /// exactly once, the task is cancelled at most once and never after it completed, and a stop before the task
    /// exists is remembered.
    struct StateMachine<Task, Continuation> {
        private enum State {
            case idle
            case stoppedBeforeStart(FerryError)
            case awaitingHead(Task, Continuation)
            case streaming(Task)
            case finished
        }

        private var state = State.idle

        enum StartAction {
            /// Resume the task.
            case resume
            /// Ferry stopped the call before it started: fail the continuation.
            case fail(Continuation, FerryError)
        }

        /// The task was made; the head continuation waits.
        mutating func start(_ task: Task, continuation: Continuation) -> StartAction {
            switch state {
            case .idle:
                state = .awaitingHead(task, continuation)
                return .resume
            case .stoppedBeforeStart(let error):
                state = .finished
                return .fail(continuation, error)
            case .awaitingHead, .streaming, .finished:
                preconditionFailure("a URLSession call starts once")
            }
        }

        /// The head arrived: the continuation to resume with it, once.
        mutating func receiveHead() -> Continuation? {
            guard case .awaitingHead(let task, let continuation) = state else { return nil }
            state = .streaming(task)
            return continuation
        }

        enum StopAction {
            case none
            /// Fail the head continuation, then cancel the task.
            case failHead(Continuation, Task)
            /// End the body with the error, then cancel the task.
            case failBody(Task)
        }

        /// Ferry stops the call (cancellation, a timeout, a chunk the buffer refused).
        mutating func stop(_ error: FerryError) -> StopAction {
            switch state {
            case .idle:
                state = .stoppedBeforeStart(error)
                return .none
            case .awaitingHead(let task, let continuation):
                state = .finished
                return .failHead(continuation, task)
            case .streaming(let task):
                state = .finished
                return .failBody(task)
            case .stoppedBeforeStart, .finished:
                return .none
            }
        }

        enum CompleteAction {
            case none
            /// Completed before a head was announced: find one on the task, or fail the continuation.
            case completeWithoutHead(Continuation)
            /// End the body (with the task's error, if any).
            case endBody
        }

        /// URLSession reported completion.
        mutating func complete() -> CompleteAction {
            switch state {
            case .awaitingHead(_, let continuation):
                state = .finished
                return .completeWithoutHead(continuation)
            case .streaming:
                state = .finished
                return .endBody
            case .idle, .stoppedBeforeStart, .finished:
                return .none
            }
        }
    }
}
