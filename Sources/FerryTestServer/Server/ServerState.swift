/// Everything the server's threads share, mutated only under `ServerCore`'s lock.
///
/// Each transition returns what the caller must do once the lock is released (or, for descriptor calls that must
/// not race with `close`, while it is still held). Tested directly in `ServerStateTests`.
struct ServerState {
    /// How many received requests ``TestServer/receivedRequests`` keeps.
    static let requestLogLimit = 256

    enum Phase: Equatable {
        case running
        case stopping
        case stopped
    }

    private(set) var phase: Phase = .running
    private(set) var wakeWriteFD: Int32?
    private(set) var liveThreads: Int
    private(set) var openConnections: Set<Int32> = []
    private(set) var acceptedConnections = 0
    private(set) var completedRequests = 0
    private(set) var requestLog: [TestRequest] = []
    var routes: [String: TestServer.Handler]
    private var waiters: [Int: Waiter] = [:]
    private var cancelledWaiters: Set<Int> = []
    private var nextWaiterID = 0

    /// A task waiting in ``TestServer/waitForRequests(count:timeout:)``.
    struct Waiter {
        let count: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// A state with one live thread: the listener, which is started right after.
    init(wakeWriteFD: Int32, routes: [String: TestServer.Handler]) {
        self.wakeWriteFD = wakeWriteFD
        self.routes = routes
        self.liveThreads = 1
    }

    /// Admits an accepted connection and the thread that will serve it.
    /// - Returns: `false` when the server is stopping; the caller closes `fd` then.
    mutating func admit(_ fd: Int32) -> Bool {
        guard phase == .running else { return false }
        openConnections.insert(fd)
        acceptedConnections += 1
        liveThreads += 1
        return true
    }

    /// Forgets a connection; the caller closes `fd` before releasing the lock.
    mutating func forget(_ fd: Int32) {
        openConnections.remove(fd)
    }

    /// Counts a fully read request and keeps it in the log.
    /// - Returns: the waiters this request satisfied; the caller resumes them with `true` after unlocking.
    mutating func record(_ request: TestRequest) -> [CheckedContinuation<Bool, Never>] {
        completedRequests += 1
        requestLog.append(request)
        if requestLog.count > Self.requestLogLimit {
            requestLog.removeFirst(requestLog.count - Self.requestLogLimit)
        }
        let satisfied = waiters.filter { $0.value.count <= completedRequests }
        for id in satisfied.keys { waiters[id] = nil }
        return satisfied.values.map(\.continuation)
    }

    // MARK: Waiting for requests

    /// A fresh identifier for a waiter.
    mutating func makeWaiterID() -> Int {
        nextWaiterID += 1
        return nextWaiterID
    }

    /// Parks a waiter, unless the answer is already known.
    /// - Returns: the answer to resume with at once (`true` when enough requests arrived, `false` when the wait
    ///   was cancelled first or the server is stopping), or `nil` when the waiter was parked.
    mutating func addWaiter(id: Int, count: Int, continuation: CheckedContinuation<Bool, Never>) -> Bool? {
        if cancelledWaiters.remove(id) != nil { return false }
        if completedRequests >= count { return true }
        guard phase == .running else { return false }
        waiters[id] = Waiter(count: count, continuation: continuation)
        return nil
    }

    /// Removes a waiter on cancellation or timeout.
    /// - Returns: its continuation, to resume with `false`; `nil` when it was not parked yet (it then resumes with
    ///   `false` as soon as it tries to park) or was already resumed.
    mutating func cancelWaiter(id: Int) -> CheckedContinuation<Bool, Never>? {
        guard let waiter = waiters.removeValue(forKey: id) else {
            cancelledWaiters.insert(id)
            return nil
        }
        return waiter.continuation
    }

    /// Forgets that a finished wait was cancelled (its identifier is never used again).
    mutating func finishWaiter(id: Int) {
        cancelledWaiters.remove(id)
    }

    /// What `beginShutdown` asks of its caller.
    enum ShutdownAction {
        /// Another caller already started the shutdown: just wait for the threads.
        case alreadyStopping
        /// Shut down these connections, close the wake pipe's write end, resume the waiters with `false`, then wait
        /// for the threads (and close the shared descriptors if asked).
        case stop(
            connections: [Int32],
            wakeWriteFD: Int32,
            waiters: [CheckedContinuation<Bool, Never>],
            finalize: Bool
        )
    }

    /// Starts stopping: no more connections are admitted.
    mutating func beginShutdown() -> ShutdownAction {
        guard phase == .running, let wakeWriteFD else { return .alreadyStopping }
        phase = .stopping
        self.wakeWriteFD = nil
        let finalize = liveThreads == 0
        if finalize { phase = .stopped }
        let parked = waiters.values.map(\.continuation)
        waiters = [:]
        return .stop(
            connections: Array(openConnections),
            wakeWriteFD: wakeWriteFD,
            waiters: parked,
            finalize: finalize
        )
    }

    /// Notes that a server thread finished.
    /// - Returns: `true` when it was the last one during a shutdown: the caller then closes the shared descriptors.
    mutating func threadExited() -> Bool {
        liveThreads -= 1
        guard liveThreads == 0, phase == .stopping else { return false }
        phase = .stopped
        return true
    }
}
