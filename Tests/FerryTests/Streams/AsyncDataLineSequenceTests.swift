import Ferry
import Foundation
import Testing

@Suite("Async line sequence")
struct AsyncDataLineSequenceTests {
    @Test("Lines come out across arbitrary chunk boundaries")
    func lines() async throws {
        let lines = try await Chunks.stream(["first\r", "\nsec", "ond\n\nthi", "rd\rlast"]).lines().collect()
        #expect(lines == ["first", "second", "", "third", "last"])
    }

    @Test("Multi-byte characters split across chunks decode whole")
    func multiByteAcrossChunks() async throws {
        let bytes = Data("añb😀c\n".utf8)
        let lines = try await Chunks.stream(Chunks.bytewise(bytes)).lines().collect()
        #expect(lines == ["añb😀c"])
    }

    @Test("Invalid UTF-8 throws invalidUTF8 after the valid lines before it")
    func invalidUTF8() async throws {
        let chunk = Data("ok\n".utf8) + Data([0x61, 0xFF]) + Data("\nafter\n".utf8)
        var iterator = Chunks.stream([chunk]).lines().makeAsyncIterator()
        #expect(try await iterator.next() == "ok")
        let error = try await #require(throws: FerryError.self) { try await iterator.next() }
        #expect(error.reason == .serializationFailed)
        #expect(error.underlyingError as? StreamFramingError == .invalidUTF8)
        #expect(try await iterator.next() == nil)
    }

    @Test("A line over the limit throws lineTooLong and ends the sequence")
    func lineTooLong() async throws {
        var iterator = Chunks.stream(["abc\nabcdef", "\nxyz\n"]).lines(maximumLineLength: 4).makeAsyncIterator()
        #expect(try await iterator.next() == "abc")
        let error = try await #require(throws: FerryError.self) { try await iterator.next() }
        #expect(error.underlyingError as? StreamFramingError == .lineTooLong(limit: 4))
        #expect(try await iterator.next() == nil)
    }

    @Test("The base sequence's error passes through unchanged, after the lines before it")
    func baseErrorPassesThrough() async throws {
        let base = Chunks.failing(["a\nb\npartial"], error: BaseStreamError(code: 7))
        var iterator = base.lines().makeAsyncIterator()
        #expect(try await iterator.next() == "a")
        #expect(try await iterator.next() == "b")
        await #expect(throws: BaseStreamError(code: 7)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test("After the end, next keeps returning nil")
    func nilForever() async throws {
        var iterator = Chunks.stream(["only"]).lines().makeAsyncIterator()
        #expect(try await iterator.next() == "only")
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
    }

    @Test("An empty stream has no lines")
    func emptyStream() async throws {
        #expect(try await Chunks.stream([Data(), Data()]).lines().collect().isEmpty)
    }

    @Test("The sequence is Sendable when its base is")
    func sendable() async throws {
        let lines = Chunks.stream(["x\ny\n"]).lines()
        let task = Task { try await lines.collect() }
        #expect(try await task.value == ["x", "y"])
    }
}
