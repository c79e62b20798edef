import Foundation

/// Reads a libFuzzer input as a little program: a few control bytes (where to split, which option), then payload.
struct FuzzInput {
    private(set) var bytes: [UInt8]
    private var position = 0

    init(_ start: UnsafePointer<UInt8>?, _ count: Int) {
        bytes = count == 0 || start == nil ? [] : Array(UnsafeBufferPointer(start: start, count: count))
    }

    var isAtEnd: Bool { position >= bytes.count }

    /// The next byte, or 0 when the input is used up.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next eight bytes as a seed, zero-padded.
    mutating func seed() -> UInt64 {
        (0..<8).reduce(UInt64(0)) { value, _ in value << 8 | UInt64(byte()) }
    }

    /// Up to `count` bytes.
    mutating func take(upTo count: Int) -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return Array(bytes[position..<end])
    }

    /// Everything that is left.
    mutating func rest() -> [UInt8] { take(upTo: bytes.count) }

    /// Bytes up to (not including) the next `separator`, which is consumed; the rest when there is none.
    mutating func field(separatedBy separator: UInt8) -> [UInt8] {
        let start = position
        while position < bytes.count, bytes[position] != separator { position += 1 }
        defer { if position < bytes.count { position += 1 } }
        return Array(bytes[start..<position])
    }
}

/// SplitMix64: a tiny deterministic generator, so a crashing input replays exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `data` cut at random points into pieces, some empty, some handed over as slices whose indices do not start at 0.
func randomPieces(of data: Data, seed: UInt64) -> [Data] {
    var generator = SplitMix64(state: seed)
    var pieces: [Data] = []
    var start = data.startIndex
    while start < data.endIndex {
        let length = Int(generator.next() % 9 == 0 ? 0 : 1 + generator.next() % UInt64(max(1, data.count / 3 + 1)))
        let end = min(data.endIndex, start + length)
        let piece = data[start..<end]
        pieces.append(generator.next() % 2 == 0 ? piece : Data(piece))
        start = end
    }
    return pieces
}

/// Stops the run with a message libFuzzer records next to the input.
func fuzzFailure(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError(message, file: file, line: line)
}
