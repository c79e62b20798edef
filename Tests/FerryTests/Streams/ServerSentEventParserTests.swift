import Foundation
import Testing

@testable import Ferry

@Suite("Server-sent event parser")
struct ServerSentEventParserTests {
    /// Feeds the chunks, then finishes, and returns every event.
    static func events(_ chunks: [Data]) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser(maximumLineLength: 1 << 20)
        var events: [ServerSentEvent] = []
        for chunk in chunks { events += try parser.append(chunk) }
        events += parser.finish()
        return events
    }

    static func events(_ text: String) throws -> [ServerSentEvent] {
        try events([Data(text.utf8)])
    }

    @Test("Data lines join with LF and the type defaults to message")
    func multiLineData() throws {
        let events = try Self.events("data: YHOO\ndata: +2\ndata: 10\n\n")
        #expect(events == [ServerSentEvent(event: "message", data: "YHOO\n+2\n10")])
    }

    @Test("Comments are ignored")
    func comments() throws {
        let events = try Self.events(": keep-alive\n:\ndata: first\n: between\ndata: second\n\n")
        #expect(events == [ServerSentEvent(data: "first\nsecond")])
    }

    @Test("The last event ID carries over to later events until changed")
    func idPersists() throws {
        let events = try Self.events("id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\nid\ndata: d\n\n")
        #expect(events.map(\.id) == ["1", "1", "2", ""])
        #expect(events.map(\.data) == ["a", "b", "c", "d"])
    }

    @Test("Without an id field the ID is nil")
    func noID() throws {
        #expect(try Self.events("data: a\n\n").first?.id == nil)
    }

    @Test("An id containing NUL is ignored")
    func idWithNUL() throws {
        let events = try Self.events("id: 7\ndata: a\n\nid: 8\u{0}9\ndata: b\n\n")
        #expect(events.map(\.id) == ["7", "7"])
    }

    @Test("A valid retry sets the reconnection time for this and later events")
    func retryValid() throws {
        let events = try Self.events("retry: 1500\ndata: a\n\ndata: b\n\nretry:20\ndata: c\n\n")
        #expect(events.map(\.retry) == [.milliseconds(1500), .milliseconds(1500), .milliseconds(20)])
    }

    @Test(
        "A retry that is not all ASCII digits is ignored",
        arguments: [
            "retry: 15x", "retry: -1", "retry: 1.5", "retry:", "retry", "retry:  15", "retry: ١٢",
            "retry: 99999999999999999999",
        ])
    func retryInvalid(line: String) throws {
        let events = try Self.events("retry: 300\ndata: a\n\n\(line)\ndata: b\n\n")
        #expect(events.map(\.retry) == [.milliseconds(300), .milliseconds(300)])
    }

    @Test("The event field names the type, for one event only")
    func eventNames() throws {
        let text = "event: add\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\nevent: x\nevent: remove\ndata: 4\n\n"
        let events = try Self.events(text)
        #expect(events.map(\.event) == ["add", "message", "message", "remove"])
    }

    @Test("A block without data dispatches nothing and forgets its event type")
    func emptyDataNotDispatched() throws {
        let events = try Self.events("event: ping\n\nid: 5\n\n\n\ndata: x\n\n")
        #expect(events == [ServerSentEvent(id: "5", event: "message", data: "x")])
    }

    @Test("An event the stream ends before dispatching is discarded")
    func trailingIncompleteEvent() throws {
        #expect(try Self.events("data: a\n\ndata: b\n") == [ServerSentEvent(data: "a")])
        #expect(try Self.events("data: a\n\ndata: b") == [ServerSentEvent(data: "a")])
        #expect(try Self.events("data: a\n\ndata: b\r") == [ServerSentEvent(data: "a")])
    }

    @Test("A leading byte order mark is stripped, once")
    func byteOrderMark() throws {
        #expect(try Self.events("\u{FEFF}data: a\n\n") == [ServerSentEvent(data: "a")])
        // A second BOM is part of the first line's field name, which is then unknown.
        #expect(try Self.events("\u{FEFF}\u{FEFF}data: a\n\ndata: b\n\n") == [ServerSentEvent(data: "b")])
        // A BOM after the start is not stripped.
        #expect(try Self.events("data: a\n\n\u{FEFF}data: b\n\n") == [ServerSentEvent(data: "a")])
    }

    @Test("A BOM split across chunks is still stripped")
    func byteOrderMarkAcrossChunks() throws {
        let bytes = Data("\u{FEFF}data: a\n\n".utf8)
        #expect(try Self.events(Chunks.bytewise(bytes)) == [ServerSentEvent(data: "a")])
    }

    @Test("A line without a colon is a field with an empty value")
    func fieldWithoutColon() throws {
        let events = try Self.events("data\n\ndata\ndata\n\nevent\ndata: x\n\n")
        #expect(events == [ServerSentEvent(data: ""), ServerSentEvent(data: "\n"), ServerSentEvent(data: "x")])
    }

    @Test(
        "Only one space after the colon is dropped",
        arguments: [
            ("data\n\n", ""), ("data:\n\n", ""), ("data: x\n\n", "x"), ("data:x\n\n", "x"), ("data:  x\n\n", " x"),
            ("data: x \n\n", "x "), ("data:\tx\n\n", "\tx"), ("data: a:b\n\n", "a:b"),
        ])
    func spaceAfterColon(text: String, expected: String) throws {
        #expect(try Self.events(text) == [ServerSentEvent(data: expected)])
    }

    @Test("Unknown fields and field names in other cases are ignored")
    func unknownFields() throws {
        let events = try Self.events("Data: no\nfoo: bar\nID: 3\ndata: yes\n\n")
        #expect(events == [ServerSentEvent(data: "yes")])
    }

    @Test("CR, LF and CRLF all end lines")
    func lineEndings() throws {
        let events = try Self.events("data: a\r\ndata: b\r\r\ndata: c\rdata: d\n\n")
        #expect(events == [ServerSentEvent(data: "a\nb"), ServerSentEvent(data: "c\nd")])
    }

    @Test("Invalid UTF-8 becomes U+FFFD instead of failing")
    func invalidUTF8() throws {
        let bytes = Data("data: a".utf8) + Data([0xFF, 0xE2, 0x82]) + Data("b\n\n".utf8)
        #expect(try Self.events([bytes]) == [ServerSentEvent(data: "a\u{FFFD}\u{FFFD}b")])
    }

    @Test("A line over the limit throws lineTooLong")
    func lineTooLong() throws {
        var parser = ServerSentEventParser(maximumLineLength: 8)
        #expect(try parser.append(Data("data: ab\n\n".utf8)) == [ServerSentEvent(data: "ab")])
        let error = try #require(throws: FerryError.self) { try parser.append(Data("data: abc\n".utf8)) }
        #expect(error.reason == .serializationFailed)
        #expect(error.underlyingError as? StreamFramingError == .lineTooLong(limit: 8))
    }

    @Test("Events before a long line in the same chunk come out before the error")
    func eventsBeforeLongLine() throws {
        var parser = ServerSentEventParser(maximumLineLength: 8)
        let events = try parser.append(Data("data: a\n\ndata: b\n\ndata: 0123456789\n\n".utf8))
        #expect(events == [ServerSentEvent(data: "a"), ServerSentEvent(data: "b")])
        #expect(parser.failure?.underlyingError as? StreamFramingError == .lineTooLong(limit: 8))
        #expect(throws: FerryError.self) { try parser.append(Data("\n".utf8)) }
    }

    static let streams: [String] = [
        "\u{FEFF}: hi\r\nid: 1\r\nevent: add\r\ndata: café 😀\r\ndata\r\n\r\n"
            + "retry: 250\rdata: b\r\rid: 2\ndata:c\n\n",
        "data: ü\n\n:\n\nevent: e\nid: x\u{0}y\ndata: 1\ndata:  2\n\nid\ndata: z\n\ndata: trailing",
    ]

    @Test("Every two-way split and one-byte chunks give the same events", arguments: streams)
    func chunkingDoesNotMatter(text: String) throws {
        let bytes = Data(text.utf8)
        let whole = try Self.events([bytes])
        #expect(whole.count >= 3)
        for offset in 0...bytes.count {
            #expect(try Self.events(Chunks.split(bytes, at: offset)) == whole, "split at \(offset)")
        }
        #expect(try Self.events(Chunks.bytewise(bytes)) == whole)
        #expect(try Self.events(Chunks.offsetSlices(bytes, size: 5)) == whole)
    }

    @Test("The first mixed stream parses to the expected events")
    func mixedStream() throws {
        let events = try Self.events(Self.streams[0])
        #expect(
            events == [
                ServerSentEvent(id: "1", event: "add", data: "café 😀\n"),
                ServerSentEvent(id: "1", data: "b", retry: .milliseconds(250)),
                ServerSentEvent(id: "2", data: "c", retry: .milliseconds(250)),
            ])
    }
}
