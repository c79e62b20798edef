import Foundation

/// A small `multipart/form-data` parser for tests: splits a body at its boundary and parses each part's headers.
///
/// It is strict on purpose: a missing CRLF, bytes after the closing delimiter, a header line without a colon, a bare
/// CR or LF in a header or a repeated `Content-Disposition` parameter all fail the parse.
enum MultipartParser {
    /// One header line of a part.
    struct Header: Equatable {
        var name: String
        var value: String
    }

    /// One parsed part.
    struct Part {
        var headers: [Header]
        var body: Data

        /// The value of the first header called `name`, compared case-insensitively.
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The `Content-Disposition` parameters, still escaped as on the wire.
        func dispositionParameters() throws -> [String: String] {
            let disposition = try header("Content-Disposition").orMultipartFailure("no Content-Disposition")
            return try MultipartParser.dispositionParameters(disposition)
        }

        /// The body decoded as UTF-8.
        var text: String? { String(data: body, encoding: .utf8) }
    }

    /// Why a body could not be parsed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses `body`, taking the boundary from a `multipart/form-data; boundary=…` content type.
    static func parse(_ body: Data, contentType: String) throws -> [Part] {
        try parse(body, boundary: boundary(fromContentType: contentType))
    }

    /// The `boundary` parameter of a content type, unquoted.
    static func boundary(fromContentType contentType: String) throws -> String {
        guard contentType.hasPrefix("multipart/form-data; boundary=") else {
            throw Failure(description: "not a multipart/form-data content type: \(contentType)")
        }
        var value = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        return value
    }

    /// Parses `body` delimited by `boundary`.
    static func parse(_ body: Data, boundary: String) throws -> [Part] {
        let body = Data(body)
        let delimiter = Data("--\(boundary)".utf8)
        let separator = Data("\r\n--\(boundary)".utf8)
        guard body.starts(with: delimiter) else { throw Failure(description: "body does not start with the delimiter") }
        var index = delimiter.count
        var parts: [Part] = []
        while true {
            let rest = body[index...]
            if rest.starts(with: Data("--\r\n".utf8)) {
                guard rest.count == 4 else { throw Failure(description: "bytes after the closing delimiter") }
                return parts
            }
            guard rest.starts(with: Data("\r\n".utf8)) else { throw Failure(description: "no CRLF after delimiter") }
            index += 2
            guard let end = body.range(of: separator, in: index..<body.endIndex) else {
                throw Failure(description: "part \(parts.count) is not terminated")
            }
            parts.append(try parsePart(Data(body[index..<end.lowerBound])))
            index = end.upperBound
        }
    }

    private static func parsePart(_ bytes: Data) throws -> Part {
        if bytes.starts(with: Data("\r\n".utf8)) {
            return Part(headers: [], body: Data(bytes.dropFirst(2)))
        }
        guard let blank = bytes.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "part has no end of headers")
        }
        let block = try String(data: bytes[..<blank.lowerBound], encoding: .utf8).orMultipartFailure(
            "headers are not UTF-8")
        var headers: [Header] = []
        for line in block.components(separatedBy: "\r\n") {
            guard !line.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw Failure(description: "bare CR or LF in header line \(line.debugDescription)")
            }
            guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header line \(line)") }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers.append(Header(name: String(line[..<colon]), value: String(value)))
        }
        return Part(headers: headers, body: Data(bytes[blank.upperBound...]))
    }

    /// Parses `form-data; name="…"; filename="…"` into its parameters; quoted values may not contain `"`.
    static func dispositionParameters(_ disposition: String) throws -> [String: String] {
        var rest = Substring(disposition)
        guard rest.hasPrefix("form-data") else { throw Failure(description: "not form-data: \(disposition)") }
        rest = rest.dropFirst("form-data".count)
        var parameters: [String: String] = [:]
        while !rest.isEmpty {
            guard rest.hasPrefix("; ") else { throw Failure(description: "expected '; ' in \(disposition)") }
            rest = rest.dropFirst(2)
            guard let equals = rest.firstIndex(of: "=") else { throw Failure(description: "no '=' in \(disposition)") }
            let key = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            guard rest.hasPrefix("\"") else { throw Failure(description: "unquoted value in \(disposition)") }
            rest = rest.dropFirst()
            guard let quote = rest.firstIndex(of: "\"") else { throw Failure(description: "unterminated value") }
            guard parameters[key] == nil else { throw Failure(description: "repeated parameter \(key)") }
            parameters[key] = String(rest[..<quote])
            rest = rest[rest.index(after: quote)...]
        }
        return parameters
    }
}

extension Optional {
    /// The wrapped value, or a ``MultipartParser/Failure`` saying `why`.
    func orMultipartFailure(_ why: String) throws -> Wrapped {
        guard let self else { throw MultipartParser.Failure(description: why) }
        return self
    }
}
