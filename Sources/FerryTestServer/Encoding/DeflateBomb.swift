import Foundation

/// A gzip member whose tiny DEFLATE stream decodes to a run of zeros about 160 times its size: a decompression
/// bomb, built without zlib.
///
/// A one-byte stored block puts a zero in the window; a final block with the fixed Huffman codes then repeats it
/// with length-258, distance-1 matches of 13 bits each. After the block header and one match the stream is
/// byte-aligned, so eight matches are the same 13 bytes every time, and any size costs only copies of them.
/// The CRC-32 is left zero: a client that inflates the whole bomb fails at its end anyway.
enum DeflateBomb {
    /// Decoded bytes per repeated 13-byte unit.
    static let unitSize = 8 * 258

    /// The bomb.
    /// - Parameter decodedSize: about how many zeros it decodes to (rounded down to a whole unit, at least one).
    /// - Returns: the gzip bytes; their decoded size is `259 + 2064 × units`.
    static func gzip(decodedSize: Int) -> Data {
        let units = max(1, (decodedSize - 259) / unitSize)
        var output = Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03])
        // Stored, not final, one byte: 0.
        output.append(contentsOf: [0x00, 0x01, 0x00, 0xFE, 0xFF, 0x00])
        var opening = BitWriter()
        opening.write(0b1, count: 1)  // BFINAL
        opening.write(0b01, count: 2)  // BTYPE: fixed Huffman codes
        opening.writeMatch()
        output.append(contentsOf: opening.bytes)
        var unit = BitWriter()
        for _ in 0..<8 { unit.writeMatch() }
        output.reserveCapacity(output.count + units * unit.bytes.count + 9)
        for _ in 0..<units { output.append(contentsOf: unit.bytes) }
        var closing = BitWriter()
        closing.writeHuffman(0, length: 7)  // end of block (256)
        output.append(contentsOf: closing.bytes)
        let size = UInt32(truncatingIfNeeded: 259 + units * unitSize)
        output.append(contentsOf: [0, 0, 0, 0])
        output.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: size >> ($0 * 8)) })
        return output
    }

    /// Bits packed as DEFLATE packs them: from the least significant bit of each byte up.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var count = 0

        /// Writes `value`'s low `count` bits, least significant first (header fields, extra bits).
        mutating func write(_ value: UInt32, count bits: Int) {
            for index in 0..<bits {
                if count % 8 == 0 { bytes.append(0) }
                bytes[bytes.count - 1] |= UInt8((value >> index) & 1) << (count % 8)
                count += 1
            }
        }

        /// Writes a Huffman code, most significant bit first.
        mutating func writeHuffman(_ code: UInt32, length: Int) {
            for index in (0..<length).reversed() { write((code >> index) & 1, count: 1) }
        }

        /// Length 258 (code 285: `11000101`) at distance 1 (code 0: `00000`).
        mutating func writeMatch() {
            writeHuffman(0b1100_0101, length: 8)
            writeHuffman(0, length: 5)
        }
    }
}
