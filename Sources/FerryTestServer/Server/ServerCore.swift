import Dispatch
import Foundation
import FerryLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The running server: descriptors, threads and shared state. ``TestServer`` owns one and shuts it down in `deinit`;
/// the threads hold it too, so it outlives the public object until they have all finished.
final class ServerCore: Sendable {
    let address: LoopbackAddress
    let port: Int
    let baseURL: URL
    let listenFD: Int32
    /// The read end of the wake pipe. Shutdown closes the write end, which makes this readable for every `poll`.
    let wakeFD: Int32
    private let threadName: String
    private let state: Locked<ServerState>
    private let threads = DispatchGroup()

    init(
        address: LoopbackAddress, port: Int, routes: [String: TestServer.Handler], fallback: TestServer.Handler?
    ) throws(TestServerError) {
        guard (0...65_535).contains(port) else { throw .invalidPort(port) }
        let listening: (fd: Int32, port: Int)
        do {
            listening = try address.listen(port: port)
        } catch {
            throw TestServerError(error)
        }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else {
            let error = SystemCallError("pipe")
            POSIX.closeDescriptor(listening.fd)
            throw TestServerError(error)
        }
        for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(listening.fd, F_SETFL, fcntl(listening.fd, F_GETFL) | O_NONBLOCK)

        self.address = address
        self.fallback = fallback
        self.port = listening.port
        self.listenFD = listening.fd
        self.wakeFD = pipeFDs[0]
        self.baseURL = URL(string: "http://\(address.urlHost):\(listening.port)")!
        self.threadName = "FerryTestServer \(address.urlHost):\(listening.port)"
        self.state = Locked(ServerState(wakeWriteFD: pipeFDs[1], routes: routes))
        threads.enter()
        spawn { core in Listener(core: core).run() }
    }

    // MARK: Counters and routes

    var requestCount: Int { state.withLock { $0.completedRequests } }
    var connectionCount: Int { state.withLock { $0.acceptedConnections } }
    var openConnectionCount: Int { state.withLock { $0.openConnections.count } }
    var receivedRequests: [TestRequest] { state.withLock { $0.requestLog } }
    /// The WebSocket close codes clients sent.
    let closeCodes = CloseCodeLog()
    /// How many WebSocket pings clients sent.
    let pingCount = Locked(0)

    /// What answers a request no custom route takes, in place of the built-in endpoints; `nil` for those.
    let fallback: TestServer.Handler?

    func handler(for path: String) -> TestServer.Handler? {
        state.withLock { $0.routes[path] }
    }

    func setHandler(_ handler: TestServer.Handler?, for path: String) {
        state.withLock { $0.routes[path] = handler }
    }

    func record(_ request: TestRequest) {
        let satisfied = state.withLock { $0.record(request) }
        for continuation in satisfied { continuation.resume(returning: true) }
    }

    /// Waits until `count` requests have been read, the task is cancelled, or the server stops.
    /// - Returns: whether `count` requests arrived.
    func waitForRequests(count: Int) async -> Bool {
        let id = state.withLock { $0.makeWaiterID() }
        defer { state.withLock { $0.finishWaiter(id: id) } }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer = state.withLock { $0.addWaiter(id: id, count: count, continuation: continuation) }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let continuation = state.withLock { $0.cancelWaiter(id: id) }
            continuation?.resume(returning: false)
        }
    }

    /// Every descriptor the server holds right now: listener, wake pipe read end, write end, connections.
    var openDescriptors: [Int32] {
        state.withLock { state in
            guard state.phase != .stopped else { return [] }
            return [listenFD, wakeFD] + (state.wakeWriteFD.map { [$0] } ?? []) + state.openConnections.sorted()
        }
    }

    // MARK: Connections

    /// Admits an accepted connection and starts the thread that serves it, or closes it when stopping.
    func admit(_ fd: Int32) {
        let admitted = state.withLock { state in
            guard state.admit(fd) else { return false }
            threads.enter()
            return true
        }
        guard admitted else {
            POSIX.closeDescriptor(fd)
            return
        }
        spawn { core in Connection(fd: fd, core: core).run() }
    }

    /// Closes a connection's descriptor; `reset` sends a TCP RST instead of a FIN.
    func release(_ fd: Int32, reset: Bool) {
        state.withLock { state in
            state.forget(fd)
            if reset { POSIX.armReset(fd) }
            POSIX.closeDescriptor(fd)
        }
    }

    // MARK: Waiting

    /// Waits until `fd` has input, the server shuts down, or `timeout` passes.
    func waitForInput(_ fd: Int32, timeout: Duration? = nil) -> POSIX.Readiness {
        POSIX.waitForInput(fd, wakeFD: wakeFD, timeout: timeout)
    }

    /// Waits for `duration`, or less if the server shuts down meanwhile.
    /// - Returns: `true` when the whole duration passed, `false` when shutdown cut it short.
    func pause(for duration: Duration) -> Bool {
        guard duration > .zero else { return !isStopping }
        return POSIX.waitForInput(nil, wakeFD: wakeFD, timeout: duration) == .timedOut
    }

    /// Whether `shutdown()` has started.
    var isStopping: Bool {
        POSIX.waitForInput(nil, wakeFD: wakeFD, timeout: .zero) == .woken
    }

    // MARK: Lifecycle

    /// Stops accepting, wakes and closes every connection, and waits for every thread to finish.
    ///
    /// Called from one of the server's own threads (a handler), it cannot wait for itself: it returns once the
    /// shutdown has started, and the last thread to finish closes the remaining descriptors.
    func shutdown() {
        let action = state.withLock { state in
            let action = state.beginShutdown()
            if case .stop(let connections, let wakeWriteFD, _, _) = action {
                // Under the lock, so that no connection descriptor is closed and reused meanwhile.
                for fd in connections { POSIX.shutdownBoth(fd) }
                POSIX.closeDescriptor(wakeWriteFD)
            }
            return action
        }
        if case .stop(_, _, let waiters, let finalize) = action {
            for waiter in waiters { waiter.resume(returning: false) }
            if finalize { closeSharedDescriptors() }
        }
        // A handler's thread cannot wait for itself. (Thread names are not reliable on Linux: the kernel keeps 15
        // characters, so the marker lives in the thread dictionary.)
        guard Thread.current.threadDictionary[Self.threadMarkerKey] as? String != threadName else { return }
        threads.wait()
    }

    private static let threadMarkerKey = "FerryTestServer.ServerCore"

    private func closeSharedDescriptors() {
        POSIX.closeDescriptor(listenFD)
        POSIX.closeDescriptor(wakeFD)
    }

    /// Runs `body` on a new thread; `threads.enter()` has already been called for it.
    private func spawn(_ body: @escaping @Sendable (ServerCore) -> Void) {
        let thread = Thread { [self] in
            Thread.current.threadDictionary[Self.threadMarkerKey] = threadName
            body(self)
            let last = state.withLock { $0.threadExited() }
            if last { closeSharedDescriptors() }
            threads.leave()
        }
        thread.name = threadName
        thread.start()
    }
}
