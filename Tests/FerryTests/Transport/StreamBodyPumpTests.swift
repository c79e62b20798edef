#if AsyncHTTPClient
@testable import Ferry
import Foundation
import NIOCore
import Testing

/// The pump between a stream body and AsyncHTTPClient's reading task, without a network: chunks in order, the
/// source's failure passed on, and a stop that ends both the engine's wait and the source's iteration.
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

    @Test func readsOneChunkAheadOfTheEngine() async throws {
        // Given: an endless source that reports each read, and its end when the reader lets it go
        let source = CountingSource()
        let pump = StreamBodyPump(ByteSource(source), counter: counter)
        var reads = source.reads.makeAsyncIterator()

        // When: the pump starts, and later the engine takes a chunk
        pump.start()
        #expect(await reads.next() == 1, "the first chunk is read before the engine asks")
        #expect(try await pump.makeAsyncIterator().next()?.readableBytes == 1)
        #expect(await reads.next() == 2, "the next is read as soon as the first is taken")
        pump.stop()

        // Then: the reader stops reading. Stopped before it parked, it drops chunk 2 and ends; parked, it reads once
        // more so that the source sees the stop. (A reader without the bound reads on until it sees the stop.)
        var rest: [Int] = []
        while let read = await reads.next() { rest.append(read) }
        #expect(rest.count <= 1, "at most the one last read after the stop, not \(rest)")
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
}

/// Endless chunks that say the task-local `mark` of the task reading them.
private struct MarkedSource: AsyncSequence, Sendable {
    @TaskLocal static var mark = "none"

    struct AsyncIterator: AsyncIteratorProtocol {
        func next() async throws -> Data? { Data(MarkedSource.mark.utf8) }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}

/// Endless one-byte chunks; says the number of each read, and ends `reads` when its iterator is released.
private struct CountingSource: AsyncSequence, Sendable {
    let reads: AsyncStream<Int>
    let report: AsyncStream<Int>.Continuation

    init() {
        (reads, report) = AsyncStream.makeStream(of: Int.self)
    }

    final class AsyncIterator: AsyncIteratorProtocol {
        let report: AsyncStream<Int>.Continuation
        var count = 0

        init(report: AsyncStream<Int>.Continuation) {
            self.report = report
        }

        deinit {
            report.finish()
        }

        func next() async throws -> Data? {
            count += 1
            report.yield(count)
            return Data("a".utf8)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(report: report)
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
