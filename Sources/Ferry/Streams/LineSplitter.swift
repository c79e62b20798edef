import Foundation

/// Cuts a byte stream into lines ended by CR, LF or CRLF, wherever the chunk boundaries fall.
///
/// A CR that ends one chunk and an LF that opens the next are one terminator. Each chunk is scanned once, and the
/// unterminated tail is kept only up to the line length limit, so memory stays bounded.
///
/// When a line is too long, the lines completed before it in the same chunk are still returned; the error is then
/// kept in ``failure`` and thrown by every later ``append(_:)``.
struct LineSplitter {
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// The longest line accepted, in bytes, not counting its terminator.
    let maximumLineLength: Int
    /// The start of a line whose terminator has not arrived yet.
    private var partialLine = Data()
    /// Whether the last chunk ended with CR, so that an LF opening the next chunk belongs to it.
    private var endedWithCarriageReturn = false
    /// The error that stopped the splitter, once a line was too long.
    private(set) var failure: FerryError?

    /// Creates a splitter.
    /// - Parameter maximumLineLength: The longest line accepted, in bytes; values below zero count as zero.
    init(maximumLineLength: Int) {
        self.maximumLineLength = max(0, maximumLineLength)
    }

    /// Adds a chunk and returns the lines it completes, without their terminators.
    /// - Parameter chunk: The next bytes of the stream.
    /// - Returns: The completed lines, in order; empty lines included.
    /// - Throws: ``FerryError`` with a ``StreamFramingError/lineTooLong(limit:)`` underlying error when a line
    ///   exceeds ``maximumLineLength`` and no line before it in the chunk was completed, or when ``failure`` is set.
    mutating func append(_ chunk: Data) throws(FerryError) -> [Data] {
        if let failure { throw failure }
        guard !chunk.isEmpty else { return [] }
        let scan = Self.scan(chunk, skippingLeadingLineFeed: endedWithCarriageReturn)
        endedWithCarriageReturn = scan.endsWithCarriageReturn
        var lines: [Data] = []
        lines.reserveCapacity(scan.lineEnds.count)
        var start = chunk.startIndex + scan.firstLineStart
        for (end, next) in scan.lineEnds {
            let piece = chunk[start..<(chunk.startIndex + end)]
            guard partialLine.count + piece.count <= maximumLineLength else { return try fail(after: lines) }
            lines.append(completeLine(with: piece))
            start = chunk.startIndex + next
        }
        let tail = chunk[start...]
        guard partialLine.count + tail.count <= maximumLineLength else { return try fail(after: lines) }
        partialLine.append(tail)
        return lines
    }

    /// Ends the stream.
    /// - Returns: The last line when the stream did not end with a terminator, or `nil`.
    mutating func finish() -> Data? {
        endedWithCarriageReturn = false
        guard failure == nil, !partialLine.isEmpty else { return nil }
        var line = Data()
        swap(&line, &partialLine)
        return line
    }

    /// Returns the buffered start of a line followed by its last piece, and empties the buffer.
    private mutating func completeLine(with piece: Data) -> Data {
        guard !partialLine.isEmpty else { return piece }
        var line = Data()
        swap(&line, &partialLine)
        line.append(piece)
        return line
    }

    /// Records that a line was too long; returns the lines completed before it, or throws when there are none.
    private mutating func fail(after lines: [Data]) throws(FerryError) -> [Data] {
        let error = FerryError.framing(.lineTooLong(limit: maximumLineLength))
        failure = error
        partialLine = Data()
        if lines.isEmpty { throw error }
        return lines
    }

    /// Where the lines of one chunk end, as byte offsets into the chunk.
    private struct Scan {
        /// Where the first line starts: 1 when an LF completing the previous chunk's CR was skipped.
        var firstLineStart = 0
        /// For each terminator: where the line ends and where the next line starts.
        var lineEnds: [(end: Int, next: Int)] = []
        /// Whether the chunk's last byte is a CR whose LF, if any, is still to come.
        var endsWithCarriageReturn = false
    }

    private static func scan(_ chunk: Data, skippingLeadingLineFeed: Bool) -> Scan {
        chunk.withUnsafeBytes { bytes in
            var scan = Scan()
            if skippingLeadingLineFeed, bytes.first == lineFeed { scan.firstLineStart = 1 }
            var start = scan.firstLineStart
            while let end = bytes[start...].firstIndex(where: { $0 == lineFeed || $0 == carriageReturn }) {
                var next = end + 1
                if bytes[end] == carriageReturn {
                    if next == bytes.count {
                        scan.endsWithCarriageReturn = true
                    } else if bytes[next] == lineFeed {
                        next += 1
                    }
                }
                scan.lineEnds.append((end, next))
                start = next
            }
            return scan
        }
    }
}
