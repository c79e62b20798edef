import FerryLocking

/// The WebSocket close codes clients sent, and the tasks waiting for a number of them.
final class CloseCodeLog: Sendable {
    private struct State {
        var codes: [Int] = []
        var waiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    /// The codes so far, in order.
    var codes: [Int] { state.withLock { $0.codes } }

    /// Notes a code and wakes the waiters it satisfies.
    func record(_ code: Int) {
        let woken = state.withLock { state in
            state.codes.append(code)
            let ready = state.waiters.filter { $0.value.count <= state.codes.count }
            for id in ready.keys { state.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Waits until `count` codes arrived or the task is cancelled.
    func wait(count: Int) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.codes.count >= count || Task.isCancelled { return true }
                    state.waiters[id] = (count, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume()
        }
    }
}
