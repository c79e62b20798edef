/// Percent-decoding for paths, query strings and form bodies.
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusIsSpace`); malformed escapes stay as written.
    /// - Parameters:
    ///   - text: the encoded text.
    ///   - plusIsSpace: whether `+` stands for a space, as in query strings and form bodies.
    /// - Returns: the decoded text, with invalid UTF-8 replaced by U+FFFD.
    static func decode(_ text: Substring, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                if iterator.count >= 2,
                    let high = hexValue(iterator[iterator.startIndex]),
                    let low = hexValue(iterator[iterator.startIndex + 1])
                {
                    bytes.append(high << 4 | low)
                    iterator.removeFirst(2)
                } else {
                    bytes.append(byte)
                }
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Splits `a=1&b=2` into decoded pairs, in order; a name without `=` gets an empty value.
    /// - Parameter query: the query string, without the leading `?`.
    /// - Returns: the decoded pairs.
    static func pairs(_ query: Substring) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { field in
            guard let equals = field.firstIndex(of: "=") else {
                return (decode(field, plusIsSpace: true), "")
            }
            let name = decode(field[..<equals], plusIsSpace: true)
            let value = decode(field[field.index(after: equals)...], plusIsSpace: true)
            return (name, value)
        }
    }

    /// The value of one hexadecimal digit, or `nil`.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
