import Foundation
import Testing

@testable import Ferry

@Suite("Line splitter")
struct LineSplitterTests {
    /// Feeds the chunks, then finishes, and returns every line as a string.
    static func lines(_ chunks: [Data], limit: Int = 1 << 20) throws -> [String] {
        var splitter = LineSplitter(maximumLineLength: limit)
        var lines: [Data] = []
        for chunk in chunks { lines += try splitter.append(chunk) }
        if let last = splitter.finish() { lines.append(last) }
        return lines.map { String(decoding: $0, as: UTF8.self) }
    }

    static func lines(_ chunks: [String], limit: Int = 1 << 20) throws -> [String] {
        try lines(chunks.map { Data($0.utf8) }, limit: limit)
    }

    @Test(
        "Each terminator ends a line",
        arguments: [
            ("a\nb\n", ["a", "b"]), ("a\r\nb\r\n", ["a", "b"]), ("a\rb\r", ["a", "b"]),
            ("a\nb\r\nc\rd", ["a", "b", "c", "d"]), ("a\r\r\nb", ["a", "", "b"]), ("a\n\rb", ["a", "", "b"]),
        ])
    func terminators(text: String, expected: [String]) throws {
        #expect(try Self.lines([text]) == expected)
    }

    @Test("Empty lines are kept")
    func emptyLines() throws {
        #expect(try Self.lines(["\n\na\n\n"]) == ["", "", "a", ""])
        #expect(try Self.lines(["\r\n\r\n"]) == ["", ""])
    }

    @Test("A CRLF split across chunks is one terminator")
    func crlfAcrossChunks() throws {
        #expect(try Self.lines(["a\r", "\nb\r", "\n"]) == ["a", "b"])
        #expect(try Self.lines(["a\r", "", "\nb"]) == ["a", "b"])
        #expect(try Self.lines(["a\r", "\n", "\n"]) == ["a", ""])
    }

    @Test("A CR ending a chunk is a terminator even when no LF follows")
    func crAtEndOfChunk() throws {
        #expect(try Self.lines(["a\r", "b"]) == ["a", "b"])
        #expect(try Self.lines(["a\r", "\rb"]) == ["a", "", "b"])
    }

    @Test("A CR at the end of the stream ends the last line and nothing more")
    func crAtEndOfStream() throws {
        var splitter = LineSplitter(maximumLineLength: 100)
        #expect(try splitter.append(Data("a\r".utf8)) == [Data("a".utf8)])
        #expect(splitter.finish() == nil)
    }

    @Test("An unterminated last line comes out of finish")
    func trailingLine() throws {
        var splitter = LineSplitter(maximumLineLength: 100)
        #expect(try splitter.append(Data("a\nb".utf8)) == [Data("a".utf8)])
        #expect(try splitter.append(Data("c".utf8)) == [])
        #expect(splitter.finish() == Data("bc".utf8))
        #expect(splitter.finish() == nil)
    }

    @Test("One-byte chunks give the same lines as one chunk")
    func oneByteChunks() throws {
        let text = Data("first\r\nsecond\rthird\n\r\nfourth\r\r\nfifth".utf8)
        let whole = try Self.lines([text])
        #expect(whole == ["first", "second", "third", "", "fourth", "", "fifth"])
        #expect(try Self.lines(Chunks.bytewise(text)) == whole)
        #expect(try Self.lines(Chunks.offsetSlices(text, size: 3)) == whole)
    }

    @Test("Every two-way split gives the same lines")
    func everySplit() throws {
        let text = Data("a\r\nbc\r\rd\n\ne\r\n".utf8)
        let whole = try Self.lines([text])
        for offset in 0...text.count {
            #expect(try Self.lines(Chunks.split(text, at: offset)) == whole, "split at \(offset)")
        }
    }

    @Test("A line at the limit passes; one byte more throws")
    func limit() throws {
        #expect(try Self.lines(["abcd\nefgh"], limit: 4) == ["abcd", "efgh"])
        #expect(throws: FerryError.self) { try Self.lines(["abcde\n"], limit: 4) }
        #expect(throws: FerryError.self) { try Self.lines(["ab", "cd", "e\n"], limit: 4) }
    }

    @Test("A long line throws while it is still buffered, before its terminator arrives")
    func longLineThrowsEarly() throws {
        var splitter = LineSplitter(maximumLineLength: 4)
        _ = try splitter.append(Data("abc".utf8))
        let error = try #require(throws: FerryError.self) { try splitter.append(Data("de".utf8)) }
        #expect(error.reason == .serializationFailed)
        #expect(error.underlyingError as? StreamFramingError == .lineTooLong(limit: 4))
    }

    @Test("Lines before a long one in the same chunk come out; the error follows on the next append")
    func linesBeforeLongLine() throws {
        var splitter = LineSplitter(maximumLineLength: 4)
        #expect(try splitter.append(Data("ab\ncd\nabcdef\ngh\n".utf8)) == [Data("ab".utf8), Data("cd".utf8)])
        #expect(splitter.failure?.underlyingError as? StreamFramingError == .lineTooLong(limit: 4))
        #expect(throws: FerryError.self) { try splitter.append(Data("ok\n".utf8)) }
        #expect(splitter.finish() == nil)
    }

    @Test("A 1 MB chunk of many lines splits into all of them", .ownThreads)
    func largeChunk() throws {
        let line = String(repeating: "x", count: 99)
        let count = 10_000
        let text = Data(String(repeating: line + "\n", count: count).utf8)
        var splitter = LineSplitter(maximumLineLength: 100)
        let lines = try splitter.append(text)
        #expect(text.count == 1_000_000)
        #expect(lines.count == count)
        #expect(lines.allSatisfy { $0.count == 99 })
        #expect(splitter.finish() == nil)
    }

    @Test("A line spread over many chunks is assembled once")
    func lineOverManyChunks() throws {
        let chunks = Array(repeating: "0123456789", count: 1000) + ["\n"]
        let lines = try Self.lines(chunks, limit: 10_000)
        #expect(lines == [String(repeating: "0123456789", count: 1000)])
    }
}
