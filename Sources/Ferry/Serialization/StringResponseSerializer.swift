import Foundation

/// Decodes the body as text: with the given encoding, else the `Content-Type` charset, else UTF-8, else
/// ISO-8859-1 (which accepts any bytes).
public struct StringResponseSerializer: ResponseSerializer {
    /// The encoding to use whatever the response says, or `nil` to follow the response.
    public var encoding: String.Encoding?

    /// Creates the serializer.
    /// - Parameter encoding: The encoding to force, or `nil` to follow the response.
    public init(encoding: String.Encoding? = nil) { self.encoding = encoding }

    /// Decodes `data`.
    /// - Parameters:
    ///   - request: Unused.
    ///   - response: Its `Content-Type` charset chooses the encoding.
    ///   - data: The body.
    /// - Returns: The text; `""` for an empty body.
    /// - Throws: ``SerializationFailure`` when the bytes are invalid in the chosen or declared encoding.
    public func serialize(request: Request, response: HTTPResponse, data: Data) throws -> String {
        if data.isEmpty { return "" }
        let declared = response.contentType.flatMap { MediaType(parsing: $0).parameters["charset"] }
        if let chosen = encoding ?? declared.flatMap(String.Encoding.init(charset:)) {
            guard let text = String(data: data, encoding: chosen) else {
                throw SerializationFailure("the body is not valid \(declared ?? "\(chosen)") text")
            }
            return text
        }
        if let text = String(validating: data, as: UTF8.self) { return text }
        // ISO-8859-1 maps every byte to the scalar of the same value, so it cannot fail.
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: data.lazy.map { Unicode.Scalar($0) })
        return String(scalars)
    }
}

extension ResponseSerializer where Self == StringResponseSerializer {
    /// The body as text.
    /// - Parameter encoding: The encoding to force, or `nil` to follow the response.
    /// - Returns: The serializer.
    public static func string(encoding: String.Encoding? = nil) -> StringResponseSerializer {
        StringResponseSerializer(encoding: encoding)
    }
}

extension String.Encoding {
    /// The encoding of an IANA charset name, or `nil` when Ferry does not know it.
    init?(charset ianaName: String) {
        switch ianaName.lowercased() {
        case "utf-8", "utf8", "unicode-1-1-utf-8": self = .utf8
        case "us-ascii", "ascii", "iso646-us": self = .ascii
        case "iso-8859-1", "latin1", "l1", "iso_8859-1", "iso8859-1": self = .isoLatin1
        case "iso-8859-2", "latin2", "iso_8859-2": self = .isoLatin2
        case "windows-1250", "cp1250": self = .windowsCP1250
        case "windows-1251", "cp1251": self = .windowsCP1251
        case "windows-1252", "cp1252": self = .windowsCP1252
        case "windows-1253", "cp1253": self = .windowsCP1253
        case "windows-1254", "cp1254": self = .windowsCP1254
        case "utf-16", "utf16": self = .utf16
        case "utf-16be": self = .utf16BigEndian
        case "utf-16le": self = .utf16LittleEndian
        case "utf-32", "utf32": self = .utf32
        case "utf-32be": self = .utf32BigEndian
        case "utf-32le": self = .utf32LittleEndian
        case "shift_jis", "shift-jis", "sjis": self = .shiftJIS
        case "euc-jp": self = .japaneseEUC
        case "iso-2022-jp": self = .iso2022JP
        case "macintosh", "mac": self = .macOSRoman
        default: return nil
        }
    }
}
