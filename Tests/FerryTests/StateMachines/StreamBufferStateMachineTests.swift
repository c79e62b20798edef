@testable import Ferry
import Foundation
import Testing

/// The state machine with spill files named by strings and consumers numbered.
private typealias Machine = StreamBuffer.StateMachine<String, Int>

/// An action as tests compare it: errors by reason, chunks as strings.
private enum Step: Equatable {
    case buffered(resume: Int?)
    case createSpill
    case writeSpill(String)
    case failed(FerryError.Reason)
    case dropped
    case chunk(String)
    case readSpill(String, offset: Int64, count: Int)
    case end
    case wait
    case resume(Int)
    case none
    case resumeConsumer(Int)
    case removeSpill(String)
    case removeSpillAndResume(String, Int)

    init(_ action: Machine.PushAction) {
        switch action {
        case .buffered(let consumer): self = .buffered(resume: consumer)
        case .createSpillAndWrite: self = .createSpill
        case .writeSpill(let file): self = .writeSpill(file)
        case .fail(let error): self = .failed(error.reason)
        case .drop: self = .dropped
        }
    }

    init(_ action: Machine.NextAction) {
        switch action {
        case .chunk(let chunk): self = .chunk(String(decoding: chunk, as: UTF8.self))
        case .readSpill(let file, let offset, let count): self = .readSpill(file, offset: offset, count: count)
        case .end: self = .end
        case .fail(let error): self = .failed(error.reason)
        case .wait: self = .wait
        }
    }

    init(_ action: Machine.WaitAction) {
        switch action {
        case .wait: self = .wait
        case .resume(let consumer): self = .resume(consumer)
        }
    }

    init(_ action: Machine.ReleaseAction) {
        switch action {
        case .none: self = .none
        case .resumeConsumer(let consumer): self = .resumeConsumer(consumer)
        case .removeSpill(let file): self = .removeSpill(file)
        case .removeSpillAndResumeConsumer(let file, let consumer): self = .removeSpillAndResume(file, consumer)
        }
    }
}

extension Machine {
    /// Pushes the UTF-8 of a string.
    fileprivate mutating func push(_ text: String) -> Step { Step(push(Data(text.utf8))) }
    /// Asks for the next chunk.
    fileprivate mutating func step() -> Step { Step(next()) }
}

@Suite("Stream buffer state machine")
struct StreamBufferStateMachineTests {
    private static let spill = StreamOptions.OverflowPolicy.spillToDisk(maximumBytes: 100)

    @Test func aChunkIsReadBack() {
        var machine = Machine(capacity: 8, overflow: .fail)
        #expect(machine.push("ab") == .buffered(resume: nil))
        #expect(machine.bufferedByteCount == 2)
        #expect(machine.step() == .chunk("ab"))
        #expect(machine.bufferedByteCount == 0)
        #expect(machine.step() == .wait)
    }

    @Test func emptyChunksAreDropped() {
        var machine = Machine(capacity: 8, overflow: .fail)
        #expect(machine.push("") == .dropped)
        #expect(machine.step() == .wait)
    }

    @Test func aPushResumesTheWaitingConsumer() {
        // Given a consumer that found nothing and waits
        var machine = Machine(capacity: 8, overflow: .fail)
        #expect(machine.step() == .wait)
        #expect(Step(machine.consumerWaits(1, isCancelled: false)) == .wait)
        #expect(machine.isConsumerWaiting)
        // When a chunk arrives
        let pushed = machine.push("ab")
        // Then the consumer is resumed and gets it
        #expect(pushed == .buffered(resume: 1))
        #expect(!machine.isConsumerWaiting)
        #expect(machine.step() == .chunk("ab"))
    }

    @Test func aConsumerDoesNotWaitWhenAChunkArrivedMeanwhile() {
        var machine = Machine(capacity: 8, overflow: .fail)
        #expect(machine.step() == .wait)
        _ = machine.push("ab")
        #expect(Step(machine.consumerWaits(1, isCancelled: false)) == .resume(1))
        #expect(!machine.isConsumerWaiting)
    }

    @Test func aCancelledConsumerDoesNotWaitAndAWaitingOneIsResumed() {
        var machine = Machine(capacity: 8, overflow: .fail)
        #expect(Step(machine.consumerWaits(1, isCancelled: true)) == .resume(1))
        #expect(Step(machine.consumerWaits(2, isCancelled: false)) == .wait)
        #expect(Step(machine.consumerCancelled()) == .resumeConsumer(2))
        #expect(Step(machine.consumerCancelled()) == .none)
    }

    @Test func aFullBufferUnderTheFailingPolicyOverflows() {
        // Given a buffer of 4 bytes holding 3
        var machine = Machine(capacity: 4, overflow: .fail)
        #expect(machine.push("abc") == .buffered(resume: nil))
        // When 2 more arrive
        // Then the push fails, and every later one too
        #expect(machine.push("de") == .failed(.streamBufferOverflow(limit: 4)))
        #expect(machine.push("f") == .failed(.streamBufferOverflow(limit: 4)))
        // And what was buffered is still read
        #expect(machine.step() == .chunk("abc"))
        #expect(machine.step() == .wait)
    }

    @Test func aFirstChunkLargerThanTheCapacityIsHeld() {
        var machine = Machine(capacity: 2, overflow: .fail)
        #expect(machine.push("abcdef") == .buffered(resume: nil))
        #expect(machine.step() == .chunk("abcdef"))
    }

    @Test func chunksPastTheCapacitySpillAndAreReadInOrder() {
        // Given a 4-byte buffer that spills, read 2 bytes at a time
        var machine = Machine(capacity: 4, overflow: Self.spill, spillReadSize: 2)
        #expect(machine.push("abcd") == .buffered(resume: nil))
        // When more arrives
        #expect(machine.push("ef") == .createSpill)
        #expect(Step(machine.spillWritten(to: "s1")) == .none)
        #expect(machine.push("g") == .writeSpill("s1"))
        #expect(Step(machine.spillWritten(to: "s1")) == .none)
        #expect(machine.bufferedByteCount == 7)
        // Then memory is read first, then the spill file in order, and the file is removed once drained
        #expect(machine.step() == .chunk("abcd"))
        #expect(machine.step() == .readSpill("s1", offset: 0, count: 2))
        #expect(Step(machine.spillRead(count: 2)) == .none)
        #expect(machine.step() == .readSpill("s1", offset: 2, count: 1))
        #expect(Step(machine.spillRead(count: 1)) == .removeSpill("s1"))
        #expect(machine.bufferedByteCount == 0)
        // And later chunks are held in memory again
        #expect(machine.push("h") == .buffered(resume: nil))
        #expect(machine.step() == .chunk("h"))
    }

    @Test func chunksGoToTheSpillFileWhileItHasUnreadBytes() {
        // Given memory drained while the spill file still has bytes
        var machine = Machine(capacity: 4, overflow: Self.spill)
        _ = machine.push("abcd")
        #expect(machine.push("ef") == .createSpill)
        _ = machine.spillWritten(to: "s1")
        #expect(machine.step() == .chunk("abcd"))
        // When a chunk that would fit in memory arrives
        // Then it goes after the spilled bytes
        #expect(machine.push("g") == .writeSpill("s1"))
        _ = machine.spillWritten(to: "s1")
        #expect(machine.step() == .readSpill("s1", offset: 0, count: 3))
    }

    @Test func theSpillFileHasALimit() {
        var machine = Machine(capacity: 4, overflow: .spillToDisk(maximumBytes: 3))
        _ = machine.push("abcd")
        #expect(machine.push("ef") == .createSpill)
        _ = machine.spillWritten(to: "s1")
        #expect(machine.push("gh") == .failed(.streamBufferOverflow(limit: 7)))
        #expect(machine.push("i") == .failed(.streamBufferOverflow(limit: 7)))
    }

    @Test func aChunkLargerThanTheSpillLimitOverflows() {
        var machine = Machine(capacity: 1, overflow: .spillToDisk(maximumBytes: 2))
        _ = machine.push("a")
        #expect(machine.push("bcd") == .failed(.streamBufferOverflow(limit: 3)))
    }

    @Test func aCompleteBodyEndsAfterItsChunks() {
        // Given buffered chunks
        var machine = Machine(capacity: 8, overflow: .fail)
        _ = machine.push("ab")
        _ = machine.push("cd")
        // When the body is complete
        #expect(Step(machine.finish(nil)) == .none)
        // Then the chunks come, then the end, and later pushes are dropped
        #expect(machine.push("ef") == .dropped)
        #expect(machine.step() == .chunk("ab"))
        #expect(machine.step() == .chunk("cd"))
        #expect(machine.step() == .end)
        #expect(machine.step() == .end)
    }

    @Test func aFailedBodyThrowsAfterItsChunksAndTheFirstEndWins() {
        var machine = Machine(capacity: 8, overflow: .fail)
        _ = machine.push("ab")
        _ = machine.finish(FerryError(.transport(.connectionLost)))
        _ = machine.finish(nil)
        #expect(machine.step() == .chunk("ab"))
        #expect(machine.step() == .failed(.transport(.connectionLost)))
    }

    @Test func finishResumesTheWaitingConsumer() {
        var machine = Machine(capacity: 8, overflow: .fail)
        _ = machine.consumerWaits(1, isCancelled: false)
        #expect(Step(machine.finish(nil)) == .resumeConsumer(1))
        #expect(machine.step() == .end)
    }

    @Test func theEndWaitsForASpillWriteInFlight() {
        // Given a spill write in flight and nothing else to read
        var machine = Machine(capacity: 4, overflow: Self.spill)
        _ = machine.push("abcd")
        #expect(machine.push("ef") == .createSpill)
        #expect(machine.step() == .chunk("abcd"))
        // When the stream ends before the write does (finish from another thread)
        _ = machine.finish(nil)
        // Then the consumer waits for the write, and gets its bytes before the end
        #expect(machine.step() == .wait)
        #expect(Step(machine.consumerWaits(1, isCancelled: false)) == .wait)
        #expect(Step(machine.spillWritten(to: "s1")) == .resumeConsumer(1))
        #expect(machine.step() == .readSpill("s1", offset: 0, count: 2))
        #expect(Step(machine.spillRead(count: 2)) == .removeSpill("s1"))
        #expect(machine.step() == .end)
    }

    @Test func closeDropsEverythingAndResumesTheWaitingConsumer() {
        // Given a waiting consumer
        var machine = Machine(capacity: 8, overflow: .fail)
        _ = machine.consumerWaits(1, isCancelled: false)
        // When the consumer goes away
        #expect(Step(machine.close()) == .resumeConsumer(1))
        // Then it gets cancelled, and pushes are dropped
        #expect(machine.step() == .failed(.cancelled))
        #expect(machine.push("ab") == .dropped)
        #expect(machine.bufferedByteCount == 0)
        #expect(machine.step() == .failed(.cancelled))
    }

    @Test func closeRemovesTheSpillFile() {
        var machine = Machine(capacity: 4, overflow: Self.spill)
        _ = machine.push("abcd")
        _ = machine.push("ef")
        _ = machine.spillWritten(to: "s1")
        #expect(machine.bufferedByteCount == 6)
        #expect(Step(machine.close()) == .removeSpill("s1"))
        #expect(machine.bufferedByteCount == 0)
        #expect(machine.step() == .failed(.cancelled))
    }

    @Test func closeDuringASpillWriteLeavesTheRemovalToTheWrite() {
        var machine = Machine(capacity: 4, overflow: Self.spill)
        _ = machine.push("abcd")
        #expect(machine.push("ef") == .createSpill)
        #expect(Step(machine.close()) == .none)
        #expect(Step(machine.spillWritten(to: "s1")) == .removeSpill("s1"))
    }

    @Test func closeDuringASpillReadLeavesTheRemovalToTheRead() {
        var machine = Machine(capacity: 4, overflow: Self.spill)
        _ = machine.push("abcd")
        _ = machine.push("ef")
        _ = machine.spillWritten(to: "s1")
        _ = machine.step()
        #expect(machine.step() == .readSpill("s1", offset: 0, count: 2))
        #expect(Step(machine.close()) == .none)
        #expect(Step(machine.spillReadFailed()) == .removeSpill("s1"))
    }

    @Test func aFailedSpillReadIsRetried() {
        var machine = Machine(capacity: 1, overflow: Self.spill)
        _ = machine.push("a")
        _ = machine.push("bc")
        _ = machine.spillWritten(to: "s1")
        _ = machine.step()
        #expect(machine.step() == .readSpill("s1", offset: 0, count: 2))
        #expect(Step(machine.spillReadFailed()) == .none)
        #expect(machine.step() == .readSpill("s1", offset: 0, count: 2))
    }

    @Test func aFailedSpillWriteFailsLaterPushesAndFreesTheFile() {
        // Given a spill file being created
        var machine = Machine(capacity: 1, overflow: Self.spill)
        _ = machine.push("a")
        #expect(machine.push("bc") == .createSpill)
        // When creating it fails
        let error = FerryError(.fileSystemFailed("disk full"))
        #expect(Step(machine.spillWriteFailed(error, file: "s1")) == .removeSpill("s1"))
        // Then later pushes fail with that error, and memory is still read
        #expect(machine.push("d") == .failed(.fileSystemFailed("disk full")))
        #expect(machine.step() == .chunk("a"))
        #expect(machine.step() == .wait)
    }

    @Test func anUnboundedBufferNeverOverflows() {
        // Given the capacity the pipeline uses for memory and download destinations
        var machine = Machine(capacity: Int64(Int.max), overflow: .fail)
        // When chunks arrive
        for _ in 0..<100 { #expect(machine.push("abcdefgh") == .buffered(resume: nil)) }
        // Then all are held in memory
        #expect(machine.bufferedByteCount == 800)
        #expect(machine.step() == .chunk("abcdefgh"))
    }

    @Test func anUnboundedSpillLimitNeverOverflows() {
        var machine = Machine(capacity: 1, overflow: .spillToDisk(maximumBytes: .max))
        _ = machine.push("a")
        #expect(machine.push("b") == .createSpill)
        _ = machine.spillWritten(to: "s1")
        #expect(machine.push("c") == .writeSpill("s1"))
        _ = machine.spillWritten(to: "s1")
        #expect(machine.bufferedByteCount == 3)
    }
}
