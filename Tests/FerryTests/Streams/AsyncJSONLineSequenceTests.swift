import Ferry
import Foundation
import Testing

@Suite("Async JSON line sequence")
struct AsyncJSONLineSequenceTests {
    struct Point: Decodable, Sendable, Equatable {
        var x: Int
        var y: Int
    }

    @Test("Each line decodes to a value, across chunk boundaries")
    func decodes() async throws {
        let base = Chunks.stream(["{\"x\":1,\"y\":2}\n{\"x\":3,", "\"y\":4}\n{\"x\":5,\"y\":6}"])
        let points = try await base.jsonLines(of: Point.self).collect()
        #expect(points == [Point(x: 1, y: 2), Point(x: 3, y: 4), Point(x: 5, y: 6)])
    }

    @Test("Empty and whitespace-only lines are skipped")
    func skipsBlankLines() async throws {
        let base = Chunks.stream(["\n{\"x\":1,\"y\":2}\n\n   \n\t \n{\"x\":3,\"y\":4}\n\n"])
        let points = try await base.jsonLines(of: Point.self).collect()
        #expect(points == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
    }

    @Test("CRLF line endings work, even split across chunks")
    func crlf() async throws {
        let base = Chunks.stream(["{\"x\":1,\"y\":2}\r", "\n{\"x\":3,\"y\":4}\r\n"])
        let points = try await base.jsonLines(of: Point.self).collect()
        #expect(points == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
    }

    @Test("A line that does not decode throws serializationFailed with the decoding error, after earlier values")
    func badLine() async throws {
        let base = Chunks.stream(["{\"x\":1,\"y\":2}\n{\"x\":\"one\"}\n{\"x\":3,\"y\":4}\n"])
        var iterator = base.jsonLines(of: Point.self).makeAsyncIterator()
        #expect(try await iterator.next() == Point(x: 1, y: 2))
        let error = try await #require(throws: FerryError.self) { try await iterator.next() }
        #expect(error.reason == .serializationFailed)
        #expect(error.underlyingError is DecodingError)
        #expect(error.bodyPrefix == Data("{\"x\":\"one\"}".utf8))
        #expect(try await iterator.next() == nil)
    }

    @Test("Malformed JSON throws serializationFailed")
    func malformedJSON() async throws {
        let base = Chunks.stream(["{\"x\":1,\n"])
        let error = try await #require(throws: FerryError.self) { try await base.jsonLines(of: Point.self).collect() }
        #expect(error.reason == .serializationFailed)
        #expect(error.underlyingError is DecodingError)
    }

    @Test("The given decoder is used")
    func customDecoder() async throws {
        struct Item: Decodable, Sendable, Equatable { var itemName: String }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let items = try await Chunks.stream(["{\"item_name\":\"a\"}\n"]).jsonLines(of: Item.self, decoder: decoder)
            .collect()
        #expect(items == [Item(itemName: "a")])
    }

    @Test("The base sequence's error passes through unchanged")
    func baseErrorPassesThrough() async throws {
        let base = Chunks.failing(["{\"x\":1,\"y\":2}\n"], error: BaseStreamError(code: 5))
        var iterator = base.jsonLines(of: Point.self).makeAsyncIterator()
        #expect(try await iterator.next() == Point(x: 1, y: 2))
        await #expect(throws: BaseStreamError(code: 5)) { try await iterator.next() }
    }

    @Test("Lines sliced out of a larger chunk decode correctly")
    func manyLinesInOneChunk() async throws {
        let text = (0..<500).map { "{\"x\":\($0),\"y\":\(-$0)}\n" }.joined()
        let points = try await Chunks.stream([text]).jsonLines(of: Point.self).collect()
        #expect(points == (0..<500).map { Point(x: $0, y: -$0) })
    }
}
