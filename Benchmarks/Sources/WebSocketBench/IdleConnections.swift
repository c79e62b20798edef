import Ferry
import Foundation
import Logging
import Synchronization
import WSClient

/// Many open, idle sockets: the memory each costs, and whether every descriptor and thread is given back once they
/// are closed. Sockets are opened 200 at a time (the server's accept backlog is not the thing measured).
enum IdleConnections {
    static let batch = 200

    /// Ferry: opened with `head` (the handshake), closed with `close()`, which waits for the close handshake and the
    /// socket's task.
    static func ferry(url: String, count: Int) async throws -> Report {
        let session = Session()
        let before = ProcessCounts.now()
        let clock = ContinuousClock()
        let start = clock.now
        var sockets: [WebSocketTask] = []
        sockets.reserveCapacity(count)
        while sockets.count < count {
            let size = min(batch, count - sockets.count)
            sockets += try await withThrowingTaskGroup(of: WebSocketTask.self) { group in
                for _ in 0..<size {
                    group.addTask {
                        let socket = session.webSocket(url)
                        _ = try await socket.head
                        return socket
                    }
                }
                var made: [WebSocketTask] = []
                for try await socket in group { made.append(socket) }
                return made
            }
        }
        let elapsed = clock.now - start
        let open = ProcessCounts.now()
        await withTaskGroup(of: Void.self) { group in
            for socket in sockets { group.addTask { await socket.close() } }
        }
        sockets = []
        let after = await settled(toward: before)
        return report("ferry", count: count, elapsed: elapsed, before: before, open: open, after: after)
    }

    /// swift-websocket's client: each connection's handler waits at a gate until all are measured; returning from
    /// the handler closes the socket.
    static func raw(url: String, count: Int) async throws -> Report {
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let gate = Gate()
        let (opened, openedContinuation) = AsyncStream.makeStream(of: Void.self)
        let before = ProcessCounts.now()
        let clock = ContinuousClock()
        let start = clock.now
        let (elapsed, open) = try await withThrowingTaskGroup(of: Void.self) { group in
            var openings = opened.makeAsyncIterator()
            var started = 0
            while started < count {
                let size = min(batch, count - started)
                for _ in 0..<size {
                    group.addTask {
                        try await WebSocketClient.connect(url: url, logger: logger) { _, _, _ in
                            openedContinuation.yield()
                            await gate.wait()
                        }
                    }
                }
                for _ in 0..<size { _ = await openings.next() }
                started += size
            }
            let measured = (clock.now - start, ProcessCounts.now())
            gate.release()
            try await group.waitForAll()
            return measured
        }
        let after = await settled(toward: before)
        return report("raw", count: count, elapsed: elapsed, before: before, open: open, after: after)
    }

    /// The counts once descriptors are back at `before` (the event loops close sockets just after the tasks that
    /// asked for it return), polled for at most five seconds.
    private static func settled(toward before: ProcessCounts) async -> ProcessCounts {
        var counts = ProcessCounts.now()
        for _ in 0..<500 where counts.descriptors > before.descriptors {
            try? await Task.sleep(for: .milliseconds(10))
            counts = ProcessCounts.now()
        }
        return counts
    }

    private static func report(
        _ client: String, count: Int, elapsed: Duration, before: ProcessCounts, open: ProcessCounts,
        after: ProcessCounts
    ) -> Report {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return Report(
            client: client, workload: "idle", count: count, seconds: seconds, rate: Double(count) / seconds,
            unit: "connections opened/s", before: before, open: open, after: after,
            perConnectionKiB: Double(open.rssKiB - before.rssKiB) / Double(count))
    }
}

/// Where the raw client's handlers wait until the measurement is taken.
final class Gate: Sendable {
    private let state = Mutex<(released: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.released { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func release() {
        let waiters = state.withLock { state in
            state.released = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
