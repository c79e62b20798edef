import Foundation

/// gzip (RFC 1952) and zlib (RFC 1950) wrappers around DEFLATE "stored" blocks (RFC 1951 §3.2.4).
///
/// Stored blocks do not compress, but every inflater must accept them, and they need no zlib.
enum Deflate {
    /// The most bytes one stored block holds.
    static let blockLimit = 65_535

    /// Raw DEFLATE data made of stored blocks, the last one marked final.
    static func storedBlocks(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var output = Data(capacity: bytes.count + (bytes.count / blockLimit + 1) * 5)
        var start = 0
        repeat {
            let length = min(blockLimit, bytes.count - start)
            let isFinal = start + length == bytes.count
            output.append(isFinal ? 0x01 : 0x00)
            output.append(contentsOf: littleEndian(UInt16(length)))
            output.append(contentsOf: littleEndian(~UInt16(length)))
            output.append(contentsOf: bytes[start..<start + length])
            start += length
        } while start < bytes.count
        return output
    }

    /// A gzip member: header (no name, no timestamp), stored blocks, CRC-32 and ISIZE.
    static func gzip(_ data: Data) -> Data {
        var output = Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03])
        output.append(storedBlocks(data))
        output.append(contentsOf: littleEndian(CRC32.checksum(data)))
        output.append(contentsOf: littleEndian(UInt32(truncatingIfNeeded: data.count)))
        return output
    }

    /// A zlib stream: header `78 01`, stored blocks, Adler-32 (big-endian).
    static func zlib(_ data: Data) -> Data {
        var output = Data([0x78, 0x01])
        output.append(storedBlocks(data))
        let adler = Adler32.checksum(data)
        output.append(contentsOf: [
            UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF),
        ])
        return output
    }

    private static func littleEndian(_ value: UInt16) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
