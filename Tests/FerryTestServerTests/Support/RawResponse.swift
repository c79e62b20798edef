import Foundation

/// A response parsed from raw bytes, by a parser independent of the server's code.
struct RawResponse {
    struct Incomplete: Error {
        let received: Data
        let ending: RawClient.Ending
    }

    struct Malformed: Error {
        let reason: String
    }

    var status: Int
    var headers: [(name: String, value: String)]
    /// The body, with chunked coding undone.
    var body: Data
    /// The chunks as sent, for chunked bodies.
    var chunks: [Data]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object.
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw Malformed(reason: "body is not a JSON object")
        }
        return object
    }

    /// Parses one response from the front of `data`.
    /// - Parameters:
    ///   - isHead: the response answers HEAD (no body).
    ///   - complete: the stream has ended, so a body without framing runs to the end of `data`.
    /// - Returns: the response and how many bytes it took, or `nil` if more bytes are needed.
    static func parse(_ data: Data, isHead: Bool, complete: Bool) throws -> (RawResponse, Int)? {
        let bytes = [UInt8](data)
        guard let headEnd = bytes.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { return nil }
        let lines = String(decoding: bytes[..<(headEnd - 4)], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw Malformed(reason: "bad status line \(lines[0])")
        }
        let headers = lines.dropFirst().map { line -> (name: String, value: String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = RawResponse(status: status, headers: headers, body: Data(), chunks: [])
        if isHead || (100..<200).contains(status) || status == 204 || status == 304 {
            return (response, headEnd)
        }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            var index = headEnd
            while true {
                guard let lineEnd = bytes[index...].firstRange(of: Array("\r\n".utf8)) else { return nil }
                let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
                guard let size = Int(sizeText, radix: 16) else { throw Malformed(reason: "bad chunk size \(sizeText)") }
                let dataStart = lineEnd.upperBound
                guard bytes.count >= dataStart + size + 2 else { return nil }
                if size == 0 { return (response, dataStart + 2) }
                let chunk = Data(bytes[dataStart..<dataStart + size])
                response.chunks.append(chunk)
                response.body.append(chunk)
                index = dataStart + size + 2
            }
        }
        if let lengthText = response.header("Content-Length"), let length = Int(lengthText) {
            guard bytes.count >= headEnd + length else { return nil }
            response.body = Data(bytes[headEnd..<headEnd + length])
            return (response, headEnd + length)
        }
        guard complete else { return nil }
        response.body = Data(bytes[headEnd...])
        return (response, bytes.count)
    }
}
