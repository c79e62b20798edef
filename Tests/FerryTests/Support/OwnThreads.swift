import Foundation
import Testing

/// Runs a test on threads of its own instead of Swift's cooperative threads.
///
/// The cooperative pool has as many threads as the machine has cores: two here. Swift Testing starts every test at
/// once, so a CPU-bound test that runs for a second holds one of those two threads for that second, and every job
/// of the live tests queued behind it (a response that arrived, a timer that fired, a request waiting to be sent)
/// waits as long: with a few such tests together, for several seconds, long enough for a 10 s idle timeout to stop
/// a request that nothing was wrong with. On threads of its own, the test shares the cores by the kernel's time
/// slices, and the live tests' jobs keep running.
///
/// ```swift
/// @Test(.ownThreads) func manyCookiesStayBounded() { … }
/// ```
struct OwnThreads: TestTrait, TestScoping {
    // Named, or the protocol's default (`Never`: no scope) is inferred and the trait does nothing.
    typealias TestScopeProvider = Self

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard Self.isEnabled else { return try await function() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) {
            try await function()
        }
    }

    /// Whether the trait moves tests: unless `FERRY_TEST_OWN_THREADS` is `0`, which scripts/sanitizers.sh sets (under
    /// TSan the threads ran tens of seconds late; that script runs these tests in a process of their own instead).
    static let isEnabled = ProcessInfo.processInfo.environment["FERRY_TEST_OWN_THREADS"] != "0"
}

extension Trait where Self == OwnThreads {
    /// Runs the test on threads of its own, off Swift's cooperative threads: for a CPU-bound test.
    static var ownThreads: Self { OwnThreads() }
}

/// A task executor that runs every job on a new thread: for the few CPU-bound tests, whose tasks run a handful of
/// long jobs, not for work with many short ones.
final class ThreadPerJobExecutor: TaskExecutor {
    /// The one executor; it holds no state.
    static let shared = ThreadPerJobExecutor()

    /// The key of the mark its threads carry in their thread dictionary (a thread's name is not reliable on Linux:
    /// a new thread shows its creator's).
    private static let markKey = "ferry.test.own-thread"

    /// Whether the calling thread is one this executor started.
    static var isCurrentThreadOwn: Bool {
        Thread.current.threadDictionary[markKey] as? Bool == true
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread {
            Thread.current.threadDictionary[Self.markKey] = true
            job.runSynchronously(on: executor)
        }.start()
    }
}

@Suite("Own threads (test support)")
struct OwnThreadsTests {
    @Test(.ownThreads) func aSynchronousTestRunsOnAThreadOfItsOwn() {
        #expect(ThreadPerJobExecutor.isCurrentThreadOwn == OwnThreads.isEnabled)
    }

    @Test(.ownThreads) func soDoTheChildTasksOfAnAsynchronousOne() async {
        let own = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<3 { group.addTask { ThreadPerJobExecutor.isCurrentThreadOwn } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(own == Array(repeating: OwnThreads.isEnabled, count: 3))
    }

    @Test func withoutTheTraitATestRunsOnTheCooperativeThreads() {
        #expect(!ThreadPerJobExecutor.isCurrentThreadOwn)
    }
}
