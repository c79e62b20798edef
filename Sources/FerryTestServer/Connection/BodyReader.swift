import Foundation

/// Where a request body goes as it arrives.
protocol BodySink {
    /// Takes the next bytes of the body.
    /// - Throws: `ConnectionError.bodyTooLarge` when the sink's limit is passed.
    mutating func append(_ bytes: ArraySlice<UInt8>) throws(ConnectionError)
}

/// Keeps the body in memory, up to a limit.
struct BufferingSink: BodySink {
    let limit: Int
    private(set) var data = Data()

    init(limit: Int) {
        self.limit = limit
    }

    mutating func append(_ bytes: ArraySlice<UInt8>) throws(ConnectionError) {
        guard data.count + bytes.count <= limit else { throw .bodyTooLarge }
        data.append(contentsOf: bytes)
    }
}

/// Counts and checksums the body without keeping it, so that uploads of any size cost no memory.
struct DigestSink: BodySink {
    let limit: Int
    private(set) var byteCount = 0
    private var hash = FNV1a()

    init(limit: Int) {
        self.limit = limit
    }

    var summary: StreamedBody {
        StreamedBody(byteCount: byteCount, checksum: hash.hexDigest)
    }

    mutating func append(_ bytes: ArraySlice<UInt8>) throws(ConnectionError) {
        guard byteCount + bytes.count <= limit else { throw .bodyTooLarge }
        byteCount += bytes.count
        hash.update(bytes)
    }
}

/// Reads a request body framed by `Content-Length` or chunked transfer coding.
enum BodyReader {
    /// The longest chunk-size or trailer line accepted.
    static let lineLimit = 8 * 1024

    /// Reads the whole body into `sink`.
    /// - Parameters:
    ///   - framing: how the body is delimited.
    ///   - reader: the connection's reader.
    ///   - sink: where the bytes go.
    /// - Throws: `ConnectionError` for a malformed or oversized body, or when the connection ends early.
    static func read(
        _ framing: BodyFraming,
        from reader: inout SocketReader,
        into sink: inout some BodySink
    ) throws(ConnectionError) {
        switch framing {
        case .none:
            return
        case .length(let length):
            try readExactly(length, from: &reader, into: &sink)
        case .chunked:
            try readChunks(from: &reader, into: &sink)
        }
    }

    private static func readExactly(
        _ length: Int,
        from reader: inout SocketReader,
        into sink: inout some BodySink
    ) throws(ConnectionError) {
        var remaining = length
        while remaining > 0 {
            remaining -= try reader.consume(atMost: remaining) { bytes throws(ConnectionError) in
                try sink.append(bytes)
            }
        }
    }

    private static func readChunks(
        from reader: inout SocketReader, into sink: inout some BodySink
    ) throws(ConnectionError) {
        while true {
            let line = try reader.readLine(limit: lineLimit)
            let size = try chunkSize(line)
            if size == 0 { break }
            try readExactly(size, from: &reader, into: &sink)
            guard try reader.readLine(limit: lineLimit).isEmpty else { throw .badRequest("missing CRLF after chunk") }
        }
        // Trailer fields, up to the empty line.
        while try !reader.readLine(limit: lineLimit).isEmpty {}
    }

    /// Parses `1a3f;name=value` into the chunk size.
    static func chunkSize(_ line: ArraySlice<UInt8>) throws(ConnectionError) -> Int {
        var digits = line.prefix { $0 != UInt8(ascii: ";") }
        while let last = digits.last, last == 32 || last == 9 { digits.removeLast() }
        guard !digits.isEmpty, digits.count <= 15 else { throw .badRequest("invalid chunk size") }
        var size = 0
        for byte in digits {
            guard let value = PercentDecoding.hexValue(byte) else { throw .badRequest("invalid chunk size") }
            size = size << 4 | Int(value)
        }
        return size
    }
}
