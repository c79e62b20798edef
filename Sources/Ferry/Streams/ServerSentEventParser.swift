import Foundation

/// Interprets a `text/event-stream` body as the WHATWG HTML standard describes, chunk by chunk.
///
/// Bytes are decoded as UTF-8 with invalid sequences replaced by U+FFFD, a leading byte order mark is dropped,
/// comments and unknown fields are ignored, and an event that the stream ends before dispatching is discarded.
struct ServerSentEventParser {
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private var lines: LineSplitter
    private var isAtStreamStart = true
    private var data = ""
    private var eventType = ""
    private var lastEventID: String?
    private var retry: Duration?

    /// Creates a parser.
    /// - Parameter maximumLineLength: The longest line accepted, in bytes.
    init(maximumLineLength: Int) {
        lines = LineSplitter(maximumLineLength: maximumLineLength)
    }

    /// The error that stopped the parser, once a line was too long.
    var failure: FerryError? { lines.failure }

    /// Adds a chunk and returns the events it completes.
    /// - Parameter chunk: The next bytes of the stream.
    /// - Returns: The dispatched events, in order.
    /// - Throws: ``FerryError`` with a ``StreamFramingError/lineTooLong(limit:)`` underlying error when a line is
    ///   too long; events completed before it in the chunk are returned first, and the error is thrown next time.
    mutating func append(_ chunk: Data) throws(FerryError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for line in try lines.append(chunk) {
            if let event = interpret(line) { events.append(event) }
        }
        return events
    }

    /// Ends the stream, discarding an event that no empty line dispatched.
    /// - Returns: The events the end completes: always none, as the standard discards pending data.
    mutating func finish() -> [ServerSentEvent] {
        _ = lines.finish()
        data = ""
        eventType = ""
        return []
    }

    /// Applies one line; returns the event when the line dispatches one.
    private mutating func interpret(_ line: Data) -> ServerSentEvent? {
        var line = line
        if isAtStreamStart {
            isAtStreamStart = false
            if line.starts(with: Self.byteOrderMark) { line = line.dropFirst(Self.byteOrderMark.count) }
        }
        guard let first = line.first else { return dispatch() }
        guard first != UInt8(ascii: ":") else { return nil }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            process(field: line, value: Data())
            return nil
        }
        var value = line[line.index(after: colon)...]
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        process(field: line[..<colon], value: value)
        return nil
    }

    private mutating func process(field: Data, value: Data) {
        switch Field(field) {
        case .data:
            data += String(decoding: value, as: UTF8.self)
            data += "\n"
        case .event:
            eventType = String(decoding: value, as: UTF8.self)
        case .id:
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case .retry:
            // Only ASCII digits count; a value too large for `Int64` is ignored as well.
            let isDigits = !value.isEmpty && value.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            if isDigits, let milliseconds = Int64(String(decoding: value, as: UTF8.self)) {
                retry = .milliseconds(milliseconds)
            }
        case nil:
            break
        }
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = ""
            eventType = ""
        }
        guard !data.isEmpty else { return nil }
        data.unicodeScalars.removeLast()
        let type = eventType.isEmpty ? "message" : eventType
        return ServerSentEvent(id: lastEventID, event: type, data: data, retry: retry)
    }

    /// The field names the standard gives a meaning to.
    private enum Field {
        case data, event, id, retry

        init?(_ name: Data) {
            switch name.count {
            case 2 where name.elementsEqual("id".utf8): self = .id
            case 4 where name.elementsEqual("data".utf8): self = .data
            case 5 where name.elementsEqual("event".utf8): self = .event
            case 5 where name.elementsEqual("retry".utf8): self = .retry
            default: return nil
            }
        }
    }
}
