#if AsyncHTTPClient
@testable import Ferry
import Foundation
import NIOCore
import Testing

/// The pump between a stream body and AsyncHTTPClient's reading task, without a network: chunks in order, read ahead
/// within a budget, the source's failure passed on, and a stop that ends both the engine's wait and the source's
/// iteration.
@Suite("Stream body pump", .timeLimit(.minutes(1)))
struct StreamBodyPumpTests {
    let counter = UploadCounter(
        context: TransportContext(controls: TransferControls(), timeout: nil, uploadProgress: nil), expected: nil)

    @Test func handsOnTheChunksInOrderThenTheEnd() async throws {
        let pump = StreamBodyPump(ByteSource([Data("ab".utf8), Data("cde".utf8)].async), counter: counter)
        pump.start()
        let iterator = pump.makeAsyncIterator()
        #expect(try await iterator.next().map { String(buffer: $0) } == "ab")
        #expect(try await iterator.next().map { String(buffer: $0) } == "cde")
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil, "asked again, the end is the answer")
    }

    @Test func handsOnManyChunksInOrderThroughASmallBudget() async throws {
        // Given: 200 chunks of 0 to 6 bytes, and a budget of about two of them
        let chunks = (0..<200).map { Data(repeating: UInt8($0 % 251), count: $0 % 7) }
        let context = TransportContext(controls: TransferControls(), timeout: nil, uploadProgress: nil)
        let pump = StreamBodyPump(
            ByteSource(chunks.async), counter: UploadCounter(context: context, expected: nil),
            budget: 2 * StreamBodyPump.weight(ofBytes: 3))
        pump.start()

        // When: the engine takes them all
        var received: [Data] = []
        for try await buffer in pump { received.append(Data(copying: buffer)) }

        // Then: each arrives once, in order, is counted once, and nothing is left ahead
        #expect(received == chunks)
        #expect(context.bytesSent == Int64(chunks.reduce(0) { $0 + $1.count }))
        #expect(pump.aheadWeight == 0)
    }

    @Test func readsAheadOfTheEngineUpToItsBudget() async throws {
        // Given: a source of a thousand one-byte chunks that reports each read with what the pump then held ahead,
        // and a pump with a budget of four such chunks
        let probe = Locked<StreamBodyPump?>(nil)
        let source = CountingSource { probe.withLock { $0?.aheadWeight } ?? 0 }
        let chunk = StreamBodyPump.weight(ofBytes: 1)
        let (parks, park) = AsyncStream.makeStream(of: Void.self)
        let pump = StreamBodyPump(ByteSource(source), counter: counter, budget: 4 * chunk) { park.yield() }
        probe.withLock { $0 = pump }
        var reads = source.reads.makeAsyncIterator()
        var parked = parks.makeAsyncIterator()
        var seen: [CountingSource.Read] = []

        // When: the pump starts and parks, and the engine then takes one chunk and another
        pump.start()
        for _ in 1...4 { seen += await reads.next().map { [$0] } ?? [] }
        #expect(seen.map(\.number) == [1, 2, 3, 4], "four chunks are read before the engine asks")
        await parked.next()
        let engine = pump.makeAsyncIterator()
        #expect(try await engine.next()?.readableBytes == 1)
        #expect(pump.readerWakes == 0, "three chunks left: more than half the budget, the reader sleeps on")
        #expect(try await engine.next()?.readableBytes == 1)
        #expect(pump.readerWakes == 1, "two chunks left: half the budget, the reader is woken")

        // Then: the reader reads up to the budget again
        for _ in 1...2 { seen += await reads.next().map { [$0] } ?? [] }
        #expect(seen.map(\.number) == [1, 2, 3, 4, 5, 6])
        pump.stop()
        var rest: [CountingSource.Read] = []
        while let read = await reads.next() { rest.append(read) }
        #expect(rest.count <= 1, "at most the one last read after the stop (it lets the source see it), not \(rest)")
        let overBudget = (seen + rest).filter { $0.ahead >= 4 * chunk }
        #expect(overBudget.isEmpty, "no read starts with the budget full")
    }

    @Test func readsTheSourceWithTheSendingTasksValues() async throws {
        let pump = StreamBodyPump(ByteSource(MarkedSource()), counter: counter)
        MarkedSource.$mark.withValue("sender") { pump.start() }
        #expect(try await pump.makeAsyncIterator().next().map { String(buffer: $0) } == "sender")
        pump.stop()
    }

    @Test func passesOnTheSourcesFailure() async throws {
        struct Broken: Error {}
        let (chunks, producer) = AsyncThrowingStream.makeStream(of: Data.self)
        producer.yield(Data("ab".utf8))
        producer.finish(throwing: Broken())
        let pump = StreamBodyPump(ByteSource(chunks), counter: counter)
        pump.start()
        let iterator = pump.makeAsyncIterator()
        #expect(try await iterator.next()?.readableBytes == 2)
        await #expect(throws: Broken.self) { try await iterator.next() }
    }

    @Test func aStopEndsTheEnginesWaitAndTheSourcesIteration() async throws {
        // Given: a source that gave one chunk and then waits until it is cancelled, and the engine waiting for the next
        let source = StallingSource()
        let pump = StreamBodyPump(ByteSource(source), counter: counter)
        pump.start()
        let iterator = pump.makeAsyncIterator()
        #expect(try await iterator.next()?.readableBytes == 1)
        let waiting = Task { try await iterator.next() }
        var entered = source.entered.makeAsyncIterator()
        _ = await entered.next()

        // When: the request ends
        pump.stop()

        // Then: the engine's wait fails as cancelled, the source's wait is cancelled, and nothing more is read
        await #expect(throws: FerryError.self) { _ = try await waiting.value }
        var cancelled = source.cancelled.makeAsyncIterator()
        _ = await cancelled.next()
        let after = pump.makeAsyncIterator()
        await #expect(throws: FerryError.self) { try await after.next() }
    }

    @Test func aStopBetweenTwoChunksEndsTheSourcesIterationToo() async throws {
        // Given: a source that gave one chunk, and an engine that has not asked for the next yet
        let (ended, end) = AsyncStream.makeStream(of: Void.self)
        let (chunks, producer) = AsyncStream.makeStream(of: Data.self)
        producer.onTermination = { _ in end.finish() }
        producer.yield(Data("ab".utf8))
        let pump = StreamBodyPump(ByteSource(chunks), counter: counter)
        pump.start()
        #expect(try await pump.makeAsyncIterator().next()?.readableBytes == 2)

        // When: the request ends
        pump.stop()

        // Then: the source's iteration ends (its producer is told), though the stream is still referenced
        for await _ in ended {}
        withExtendedLifetime(pump) {}
    }

    @Test func aStopWhileTheReaderWaitsForRoomEndsTheSourcesIterationToo() async throws {
        // Given: a source that gave one chunk and has no other yet, a pump whose budget that chunk fills, and an
        // engine that never asks
        let (ended, end) = AsyncStream.makeStream(of: Void.self)
        let (chunks, producer) = AsyncStream.makeStream(of: Data.self)
        producer.onTermination = { _ in end.finish() }
        producer.yield(Data("ab".utf8))
        let (parks, park) = AsyncStream.makeStream(of: Void.self)
        let pump = StreamBodyPump(ByteSource(chunks), counter: counter, budget: 1) { park.yield() }
        pump.start()
        var parked = parks.makeAsyncIterator()
        await parked.next()

        // When: the request ends while the reader waits for room
        pump.stop()

        // Then: the source's iteration ends (its producer is told), though the stream is still referenced
        for await _ in ended {}
        withExtendedLifetime(pump) {}
    }
}

/// Endless chunks that say the task-local `mark` of the task reading them.
private struct MarkedSource: AsyncSequence, Sendable {
    @TaskLocal static var mark = "none"

    struct AsyncIterator: AsyncIteratorProtocol {
        func next() async throws -> Data? { Data(MarkedSource.mark.utf8) }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}

/// One-byte chunks, a thousand (more than a test's reader should ever read); says the number of each read and what
/// `ahead` answered then, and ends `reads` when its iterator is released.
private struct CountingSource: AsyncSequence, Sendable {
    struct Read: Sendable {
        let number: Int
        let ahead: Int
    }

    let reads: AsyncStream<Read>
    let report: AsyncStream<Read>.Continuation
    let ahead: @Sendable () -> Int

    init(ahead: @escaping @Sendable () -> Int) {
        (reads, report) = AsyncStream.makeStream(of: Read.self)
        self.ahead = ahead
    }

    final class AsyncIterator: AsyncIteratorProtocol {
        let source: CountingSource
        var count = 0

        init(source: CountingSource) {
            self.source = source
        }

        deinit {
            source.report.finish()
        }

        func next() async throws -> Data? {
            guard count < 1_000 else { return nil }
            count += 1
            source.report.yield(Read(number: count, ahead: source.ahead()))
            return Data("a".utf8)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: self)
    }
}

/// One chunk, then a wait that only cancellation ends; says when the wait began and when it was cancelled.
private struct StallingSource: AsyncSequence, Sendable {
    let entered: AsyncStream<Void>
    let enter: AsyncStream<Void>.Continuation
    let cancelled: AsyncStream<Void>
    let cancel: AsyncStream<Void>.Continuation

    init() {
        (entered, enter) = AsyncStream.makeStream(of: Void.self)
        (cancelled, cancel) = AsyncStream.makeStream(of: Void.self)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: StallingSource
        var gaveOne = false

        mutating func next() async throws -> Data? {
            guard gaveOne else {
                gaveOne = true
                return Data("a".utf8)
            }
            source.enter.yield()
            do {
                try await Task.sleep(for: .seconds(3_600))
            } catch {
                source.cancel.yield()
                throw error
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: self)
    }
}

extension Array where Element == Data {
    /// The chunks as an asynchronous sequence.
    fileprivate var async: AsyncStream<Data> {
        AsyncStream { continuation in
            for chunk in self { continuation.yield(chunk) }
            continuation.finish()
        }
    }
}
#endif
