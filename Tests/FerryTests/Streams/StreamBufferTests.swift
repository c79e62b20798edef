@testable import Ferry
import Foundation
import Testing

@Suite("Stream buffer")
struct StreamBufferTests {
    /// What one read of a buffer gave.
    private struct ReadResult {
        /// The chunk, when the read succeeded.
        var chunk: Data?
        /// The reason of the error, when it failed.
        var errorReason: FerryError.Reason?
    }

    /// A 4-byte buffer that spills into `directory`.
    private func spillingBuffer(in directory: borrowing TemporaryDirectory) -> StreamBuffer {
        StreamBuffer(
            options: StreamOptions(bufferSize: 4, overflow: .spillToDisk(maximumBytes: 1 << 20)),
            spillDirectory: directory.url)
    }

    /// A task that reads the buffer's next chunk.
    private func reading(_ buffer: StreamBuffer) -> Task<ReadResult, Never> {
        Task {
            do throws(FerryError) {
                return ReadResult(chunk: try await buffer.next())
            } catch {
                return ReadResult(errorReason: error.reason)
            }
        }
    }

    /// Waits, without sleeping, until the buffer's consumer waits.
    private func waitForConsumer(of buffer: StreamBuffer) async throws {
        try await waitUntil { buffer.isConsumerWaiting }
    }

    @Test func orderIsKeptAcrossMemoryAndTheSpillFile() async throws {
        // Given chunks that fill memory and spill
        let directory = try TemporaryDirectory()
        let buffer = spillingBuffer(in: directory)
        for chunk in ["abcd", "ef", "gh"] { try buffer.push(Data(chunk.utf8)) }
        #expect(directory.contents.count == 1)
        #expect(buffer.bufferedByteCount == 8)
        // When they are read
        var read = Data()
        while read.count < 8, let chunk = try await buffer.next() { read += chunk }
        // Then they come in order, and the drained spill file is gone
        #expect(String(decoding: read, as: UTF8.self) == "abcdefgh")
        #expect(directory.contents.isEmpty)
        #expect(buffer.bufferedByteCount == 0)
        // And later chunks are held in memory again
        try buffer.push(Data("ij".utf8))
        buffer.finish(nil)
        #expect(directory.contents.isEmpty)
        #expect(try await buffer.next() == Data("ij".utf8))
        #expect(try await buffer.next() == nil)
    }

    @Test func aConcurrentProducerAndConsumerKeepOrderThroughTheSpillFile() async throws {
        // Given a producer that outruns a small memory buffer
        let directory = try TemporaryDirectory()
        let buffer = StreamBuffer(
            options: StreamOptions(bufferSize: 64, overflow: .spillToDisk(maximumBytes: 1 << 30)),
            spillDirectory: directory.url)
        let sent = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let producer = Task {
            var offset = 0
            while offset < sent.count {
                let end = min(sent.count, offset + 1 + offset % 97)
                try buffer.push(sent[offset..<end])
                offset = end
                if offset % 7 == 0 { await Task.yield() }
            }
            buffer.finish(nil)
        }
        // When a consumer reads concurrently
        var received = Data()
        while let chunk = try await buffer.next() { received += chunk }
        try await producer.value
        // Then every byte arrives in order, and no spill file is left
        #expect(received == sent)
        #expect(directory.contents.isEmpty)
    }

    @Test func closeDeletesTheSpillFile() async throws {
        // Given spilled bytes
        let directory = try TemporaryDirectory()
        let buffer = spillingBuffer(in: directory)
        try buffer.push(Data("abcd".utf8))
        try buffer.push(Data("ef".utf8))
        #expect(directory.contents.count == 1)
        // When the consumer goes away
        buffer.close()
        // Then the file is gone, reads are cancelled and pushes ignored
        #expect(directory.contents.isEmpty)
        #expect(buffer.bufferedByteCount == 0)
        await #expect(throws: FerryError.self) { try await buffer.next() }
        try buffer.push(Data("gh".utf8))
        #expect(directory.contents.isEmpty)
    }

    @Test func releasingTheBufferDeletesTheSpillFile() throws {
        let directory = try TemporaryDirectory()
        do {
            let buffer = spillingBuffer(in: directory)
            try buffer.push(Data("abcd".utf8))
            try buffer.push(Data("ef".utf8))
            #expect(directory.contents.count == 1)
        }
        #expect(directory.contents.isEmpty)
    }

    @Test func aPushResumesTheWaitingConsumer() async throws {
        // Given a consumer waiting for a chunk
        let buffer = StreamBuffer(options: StreamOptions())
        let consumer = Task { try await buffer.next() }
        try await waitForConsumer(of: buffer)
        // When one arrives
        try buffer.push(Data("ab".utf8))
        // Then the consumer gets it
        #expect(try await consumer.value == Data("ab".utf8))
    }

    @Test func finishResumesTheWaitingConsumer() async throws {
        let buffer = StreamBuffer(options: StreamOptions())
        let consumer = Task { try await buffer.next() }
        try await waitForConsumer(of: buffer)
        buffer.finish(nil)
        #expect(try await consumer.value == nil)
    }

    @Test func aFailedStreamThrowsAfterItsChunks() async throws {
        // Given a consumer that read the buffered chunk and waits
        let buffer = StreamBuffer(options: StreamOptions())
        try buffer.push(Data("ab".utf8))
        let consumer = Task { () -> ([Data], FerryError?) in
            var chunks: [Data] = []
            do throws(FerryError) {
                while let chunk = try await buffer.next() { chunks.append(chunk) }
            } catch {
                return (chunks, error)
            }
            return (chunks, nil)
        }
        try await waitForConsumer(of: buffer)
        // When the stream fails
        buffer.finish(FerryError(.transport(.connectionLost)))
        // Then the consumer got the chunk, then the error
        let (chunks, error) = await consumer.value
        #expect(chunks == [Data("ab".utf8)])
        #expect(error?.reason == .transport(.connectionLost))
    }

    @Test func closeResumesTheWaitingConsumerWithCancellation() async throws {
        let buffer = StreamBuffer(options: StreamOptions())
        let consumer = reading(buffer)
        try await waitForConsumer(of: buffer)
        buffer.close()
        #expect(await consumer.value.errorReason == .cancelled)
    }

    @Test func cancellingTheWaitingConsumerThrowsCancelled() async throws {
        let buffer = StreamBuffer(options: StreamOptions())
        let consumer = reading(buffer)
        try await waitForConsumer(of: buffer)
        consumer.cancel()
        #expect(await consumer.value.errorReason == .cancelled)
        #expect(!buffer.isConsumerWaiting)
    }

    @Test func theFailingPolicyOverflows() throws {
        let buffer = StreamBuffer(options: StreamOptions(bufferSize: 4, overflow: .fail))
        try buffer.push(Data("abcd".utf8))
        #expect(throws: FerryError.self) { try buffer.push(Data("e".utf8)) }
        #expect(buffer.bufferedByteCount == 4)
    }

    @Test func aSpillFileThatCannotBeCreatedFailsThePush() throws {
        let missing = FileManager.default.temporaryDirectory.appending(path: "ferry-missing-\(UUID().uuidString)")
        let buffer = StreamBuffer(
            options: StreamOptions(bufferSize: 1, overflow: .spillToDisk(maximumBytes: 1 << 20)),
            spillDirectory: missing)
        try buffer.push(Data("a".utf8))
        do {
            try buffer.push(Data("b".utf8))
            Issue.record("the push should fail")
        } catch {
            #expect(error.reason == .fileSystemFailed("cannot create a stream spill file"))
        }
        #expect(buffer.bufferedByteCount == 1)
    }
}
