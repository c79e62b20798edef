import Foundation

/// Decodes gzip and zlib streams made of DEFLATE stored blocks, and checks their trailers with CRC-32 and
/// Adler-32 implementations written independently of the server's (bitwise, no tables).
enum StoredInflater {
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// Decodes a gzip member, verifying magic, method, CRC-32 and ISIZE.
    static func gunzip(_ data: Data) throws -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else {
            throw Invalid(description: "gzip header")
        }
        guard bytes[3] == 0 else { throw Invalid(description: "gzip flags not supported by this test inflater") }
        let (content, end) = try inflateStored(bytes, from: 10)
        guard bytes.count == end + 8 else { throw Invalid(description: "gzip trailer length") }
        let crc = littleEndian32(bytes, at: end)
        let size = littleEndian32(bytes, at: end + 4)
        guard crc == crc32(content) else { throw Invalid(description: "gzip CRC-32 mismatch") }
        guard size == UInt32(truncatingIfNeeded: content.count) else {
            throw Invalid(description: "gzip ISIZE mismatch")
        }
        return Data(content)
    }

    /// Decodes a zlib stream, verifying the header check and Adler-32.
    static func unzlib(_ data: Data) throws -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 6, bytes[0] & 0x0F == 8, (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0 else {
            throw Invalid(description: "zlib header")
        }
        let (content, end) = try inflateStored(bytes, from: 2)
        guard bytes.count == end + 4 else { throw Invalid(description: "zlib trailer length") }
        let adler =
            UInt32(bytes[end]) << 24 | UInt32(bytes[end + 1]) << 16 | UInt32(bytes[end + 2]) << 8
            | UInt32(bytes[end + 3])
        guard adler == adler32(content) else { throw Invalid(description: "zlib Adler-32 mismatch") }
        return Data(content)
    }

    /// Reads stored blocks until the final one; any other block type is an error here.
    private static func inflateStored(_ bytes: [UInt8], from start: Int) throws -> (content: [UInt8], end: Int) {
        var index = start
        var content: [UInt8] = []
        while true {
            guard index + 5 <= bytes.count else { throw Invalid(description: "truncated block header") }
            let header = bytes[index]
            guard header & 0b110 == 0 else { throw Invalid(description: "not a stored block") }
            let length = Int(bytes[index + 1]) | Int(bytes[index + 2]) << 8
            let complement = Int(bytes[index + 3]) | Int(bytes[index + 4]) << 8
            guard length ^ complement == 0xFFFF else { throw Invalid(description: "LEN/NLEN mismatch") }
            guard index + 5 + length <= bytes.count else { throw Invalid(description: "truncated block") }
            content += bytes[(index + 5)..<(index + 5 + length)]
            index += 5 + length
            if header & 1 == 1 { return (content, index) }
        }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    private static func littleEndian32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3])
            << 24
    }
}
