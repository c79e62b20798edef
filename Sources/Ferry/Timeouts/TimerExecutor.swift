import Dispatch

/// Where every session's timeout timer runs: a serial Dispatch queue of its own, so that a timeout fires on time
/// even when Swift's cooperative threads (two on a two-core machine) are all busy with other work.
final class TimerExecutor: TaskExecutor, Sendable {
    /// The one executor, shared by every session's timer (they only sleep and report).
    static let shared = TimerExecutor()

    private let queue = DispatchQueue(label: "Ferry.TimeoutScheduler")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
