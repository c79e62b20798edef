@testable import Ferry
import Foundation
import Testing

@Suite("Progress streams")
struct ProgressReporterTests {
    @Test func aLateConsumerGetsTheLatestAndTheFinalSnapshot() async {
        let reporter = ProgressReporter()
        reporter.update(completed: 10, total: 100)
        reporter.update(completed: 60, total: 100)  // throttled for live consumers, but kept as the latest
        var seen: [TransferProgress] = []
        let consumer = Task {
            var values: [TransferProgress] = []
            for await value in ProgressStream(reporter: reporter) { values.append(value) }
            return values
        }
        // The consumer has subscribed once it has the latest value; finishing afterwards must reach it.
        try? await waitUntil { reporter.hasConsumers }
        reporter.finish()
        seen = await consumer.value
        #expect(seen.first?.completedBytes == 60)
        #expect(seen.last?.isFinished == true)
        #expect(seen.last?.completedBytes == 60)
        #expect(seen.last?.fractionCompleted == 0.6)
    }

    @Test func aConsumerAfterTheEndGetsTheFinalSnapshotAndEnds() async {
        let reporter = ProgressReporter()
        reporter.update(completed: 5, total: nil)
        reporter.finish()
        var values: [TransferProgress] = []
        for await value in ProgressStream(reporter: reporter) { values.append(value) }
        #expect(values.count == 1)
        #expect(values.first?.isFinished == true)
        #expect(values.first?.fractionCompleted == nil)
    }

    @Test func severalConsumersAllSeeTheEnd() async {
        let reporter = ProgressReporter()
        let consumers = (0..<4).map { _ in
            Task {
                var last: TransferProgress?
                for await value in ProgressStream(reporter: reporter) { last = value }
                return last
            }
        }
        try? await waitUntil { reporter.consumerCount == 4 }
        for step in 1...1000 { reporter.update(completed: Int64(step), total: 1000) }
        reporter.finish()
        for consumer in consumers {
            let last = await consumer.value
            #expect(last?.isFinished == true)
            #expect(last?.completedBytes == 1000)
        }
        #expect(reporter.consumerCount == 0)
    }

    @Test func snapshotsAreThrottled() async {
        let reporter = ProgressReporter()
        let counter = Task {
            var count = 0
            for await _ in ProgressStream(reporter: reporter) { count += 1 }
            return count
        }
        try? await waitUntil { reporter.hasConsumers }
        for step in 1...100_000 { reporter.update(completed: Int64(step), total: 100_000) }
        reporter.finish()
        // 100,000 updates in a tight loop: a handful of snapshots, not one per update.
        #expect(await counter.value < 100)
    }

    @Test func derivedValues() {
        let progress = TransferProgress(completedBytes: 250, totalBytes: 1000, bytesPerSecond: 500)
        #expect(progress.fractionCompleted == 0.25)
        #expect(progress.estimatedTimeRemaining == .milliseconds(1500))
        #expect(TransferProgress(completedBytes: 0, totalBytes: 0).fractionCompleted == 1)
        #expect(TransferProgress(completedBytes: 9, totalBytes: nil).estimatedTimeRemaining == nil)
    }
}
