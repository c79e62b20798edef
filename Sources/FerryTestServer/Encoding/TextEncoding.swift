import Foundation

/// Encodes text in the charsets `/text` offers, by hand, so that the bytes do not depend on the platform.
enum TextEncoding {
    /// The charset names `/text` accepts (case-insensitive).
    static let supported = [
        "utf-8", "utf8", "iso-8859-1", "latin1", "utf-16", "utf-16be", "utf-16le", "windows-1252", "cp1252",
        "us-ascii", "ascii",
    ]

    /// Encodes `text`.
    /// - Parameters:
    ///   - text: the text.
    ///   - charset: the charset name; `utf-16` writes a big-endian byte order mark, then big-endian units.
    /// - Returns: the bytes, or `nil` for an unknown charset or a character the charset cannot represent.
    static func encode(_ text: String, charset: String) -> Data? {
        switch charset.lowercased() {
        case "utf-8", "utf8":
            return Data(text.utf8)
        case "iso-8859-1", "latin1":
            return singleByte(text) { $0 <= 0xFF ? UInt8($0) : nil }
        case "us-ascii", "ascii":
            return singleByte(text) { $0 <= 0x7F ? UInt8($0) : nil }
        case "windows-1252", "cp1252":
            return singleByte(text, windows1252)
        case "utf-16":
            return Data([0xFE, 0xFF]) + utf16(text, bigEndian: true)
        case "utf-16be":
            return utf16(text, bigEndian: true)
        case "utf-16le":
            return utf16(text, bigEndian: false)
        default:
            return nil
        }
    }

    private static func singleByte(_ text: String, _ map: (UInt32) -> UInt8?) -> Data? {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard let byte = map(scalar.value) else { return nil }
            bytes.append(byte)
        }
        return Data(bytes)
    }

    private static func utf16(_ text: String, bigEndian: Bool) -> Data {
        var bytes: [UInt8] = []
        for unit in text.utf16 {
            let high = UInt8(unit >> 8)
            let low = UInt8(unit & 0xFF)
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return Data(bytes)
    }

    /// Windows-1252: Latin-1 except for 0x80...0x9F, where it has typographic characters (five codes unused).
    private static func windows1252(_ scalar: UInt32) -> UInt8? {
        if scalar < 0x80 || (0xA0...0xFF).contains(scalar) { return UInt8(scalar) }
        return windows1252High[scalar]
    }

    private static let windows1252High: [UInt32: UInt8] = [
        0x20AC: 0x80, 0x201A: 0x82, 0x0192: 0x83, 0x201E: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87,
        0x02C6: 0x88, 0x2030: 0x89, 0x0160: 0x8A, 0x2039: 0x8B, 0x0152: 0x8C, 0x017D: 0x8E, 0x2018: 0x91,
        0x2019: 0x92, 0x201C: 0x93, 0x201D: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02DC: 0x98,
        0x2122: 0x99, 0x0161: 0x9A, 0x203A: 0x9B, 0x0153: 0x9C, 0x017E: 0x9E, 0x0178: 0x9F,
    ]

    /// Decodes hexadecimal text (`"c3 28"` or `"c328"`), or returns `nil`.
    static func hex(_ text: String) -> Data? {
        let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") })
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = PercentDecoding.hexValue(digits[index]),
                let low = PercentDecoding.hexValue(digits[index + 1])
            else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return Data(bytes)
    }
}
