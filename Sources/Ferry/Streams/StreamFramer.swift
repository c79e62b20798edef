import Foundation

/// Cuts chunks of bytes, split anywhere, into frames: lines, events, decoded values.
protocol StreamFramer<Frame> {
    /// What the framer produces.
    associatedtype Frame

    /// Adds a chunk and returns the frames it completes.
    /// - Parameter chunk: The next bytes of the stream.
    /// - Returns: The completed frames, in order.
    /// - Throws: ``FerryError`` when the bytes cannot be framed.
    mutating func frames(from chunk: Data) throws(FerryError) -> [Frame]

    /// Ends the stream.
    /// - Returns: The frames the end of the stream completes.
    /// - Throws: ``FerryError`` when the last bytes cannot be framed.
    mutating func finalFrames() throws(FerryError) -> [Frame]

    /// The error that stopped the framer after it returned the frames completed before the failure, if any.
    var failure: FerryError? { get }
}

extension LineSplitter: StreamFramer {
    mutating func frames(from chunk: Data) throws(FerryError) -> [Data] {
        try append(chunk)
    }

    mutating func finalFrames() -> [Data] {
        finish().map { [$0] } ?? []
    }
}

extension ServerSentEventParser: StreamFramer {
    mutating func frames(from chunk: Data) throws(FerryError) -> [ServerSentEvent] {
        try append(chunk)
    }

    mutating func finalFrames() -> [ServerSentEvent] {
        finish()
    }
}

/// Lines decoded as UTF-8. A line that is not valid UTF-8 stops the framer: the lines before it are handed out,
/// then its ``failure``.
struct TextLineFramer: StreamFramer {
    var lines: LineSplitter
    private var stopped: FerryError?

    init(lines: LineSplitter) {
        self.lines = lines
    }

    var failure: FerryError? { stopped ?? lines.failure }

    mutating func frames(from chunk: Data) throws(FerryError) -> [String] {
        text(of: try lines.frames(from: chunk))
    }

    mutating func finalFrames() -> [String] {
        text(of: lines.finalFrames())
    }

    private mutating func text(of lines: [Data]) -> [String] {
        var texts: [String] = []
        for line in lines where stopped == nil {
            guard let text = String(validating: line, as: UTF8.self) else {
                stopped = FerryError.framing(.invalidUTF8)
                break
            }
            texts.append(text)
        }
        return texts
    }
}

/// Non-blank lines decoded as JSON values. A line that does not decode stops the framer: the values before it are
/// handed out, then its ``failure``.
struct JSONLineFramer<Value: Decodable>: StreamFramer {
    var lines: LineSplitter
    let decoder: any DataDecoder
    private var stopped: FerryError?

    init(lines: LineSplitter, decoder: any DataDecoder) {
        self.lines = lines
        self.decoder = decoder
    }

    var failure: FerryError? { stopped ?? lines.failure }

    mutating func frames(from chunk: Data) throws(FerryError) -> [Value] {
        decode(try lines.frames(from: chunk))
    }

    mutating func finalFrames() -> [Value] {
        decode(lines.finalFrames())
    }

    private mutating func decode(_ lines: [Data]) -> [Value] {
        var values: [Value] = []
        for line in lines where stopped == nil {
            guard !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { continue }
            do {
                values.append(try decoder.decode(Value.self, from: line))
            } catch {
                stopped = FerryError(.serializationFailed, body: line, underlyingError: error)
            }
        }
        return values
    }
}
