import Ferry
import Foundation
import Testing

@Suite("Async server-sent event sequence")
struct AsyncServerSentEventSequenceTests {
    @Test("Several events in one chunk all come out before the next chunk")
    func severalEventsPerChunk() async throws {
        let base = Chunks.stream(["data: 1\n\ndata: 2\n\nid: a\ndata: 3\n\nda", "ta: 4\n\n", "data: dropped\n"])
        let events = try await base.serverSentEvents().collect()
        #expect(events.map(\.data) == ["1", "2", "3", "4"])
        #expect(events.map(\.id) == [nil, nil, "a", "a"])
    }

    @Test("One-byte chunks give the same events as one chunk")
    func oneByteChunks() async throws {
        let bytes = Data("\u{FEFF}event: tick\r\nid: 9\r\ndata: é\r\ndata: 😀\r\n\r\nretry: 10\ndata: x\n\n".utf8)
        let whole = try await Chunks.stream([bytes]).serverSentEvents().collect()
        let bytewise = try await Chunks.stream(Chunks.bytewise(bytes)).serverSentEvents().collect()
        #expect(whole.count == 2)
        #expect(bytewise == whole)
        #expect(whole.first == ServerSentEvent(id: "9", event: "tick", data: "é\n😀"))
    }

    @Test("The base sequence's error passes through unchanged")
    func baseErrorPassesThrough() async throws {
        let base = Chunks.failing(["data: a\n\ndata: b"], error: BaseStreamError(code: 3))
        var iterator = base.serverSentEvents().makeAsyncIterator()
        #expect(try await iterator.next()?.data == "a")
        await #expect(throws: BaseStreamError(code: 3)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test("Events before a long line come out, then lineTooLong, even when the base ends right after")
    func eventsBeforeLongLine() async throws {
        var iterator = Chunks.stream(["data: 1\n\ndata: 0123456789"]).serverSentEvents(maximumLineLength: 8)
            .makeAsyncIterator()
        #expect(try await iterator.next()?.data == "1")
        let error = try await #require(throws: FerryError.self) { try await iterator.next() }
        #expect(error.underlyingError as? StreamFramingError == .lineTooLong(limit: 8))
        #expect(try await iterator.next() == nil)
    }

    @Test("A line over the limit throws lineTooLong")
    func lineTooLong() async throws {
        let base = Chunks.stream(["data: \(String(repeating: "x", count: 100))\n\n"])
        let error = try await #require(throws: FerryError.self) {
            try await base.serverSentEvents(maximumLineLength: 50).collect()
        }
        #expect(error.reason == .serializationFailed)
        #expect(error.underlyingError as? StreamFramingError == .lineTooLong(limit: 50))
    }
}
