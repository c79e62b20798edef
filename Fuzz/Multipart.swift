// libFuzzer target: multipart encoding and MultipartBoundaryScanner.
// Properties: the scanner finds the delimiter (`--` and the boundary) in content cut into arbitrary pieces exactly
// when the whole content holds it; a form whose encoding succeeds reads back, with a plain RFC 7578 reader, as the
// same parts (names and file names in their escaped form); encoding fails exactly when the boundary is invalid or a
// part's content holds the delimiter.
import Foundation

@testable import Ferry

/// libFuzzer's entry point: checks the property above on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let seed = input.seed()
    let boundary = String(decoding: input.field(separatedBy: 0), as: UTF8.self)
    var parts: [(name: String, fileName: String?, content: Data)] = []
    while !input.isAtEnd, parts.count < 8 {
        let name = String(decoding: input.field(separatedBy: 0), as: UTF8.self)
        let fileName = input.byte() % 2 == 0 ? nil : String(decoding: input.field(separatedBy: 0), as: UTF8.self)
        parts.append((name, fileName, Data(input.field(separatedBy: 0))))
    }

    let delimiter = Data("--\(boundary)".utf8)
    var form = MultipartFormData(boundary: boundary)
    var contentHoldsDelimiter = false
    for (index, part) in parts.enumerated() {
        let whole = part.content.firstRange(of: delimiter) != nil
        contentHoldsDelimiter = contentHoldsDelimiter || whole
        var scanner = MultipartBoundaryScanner(boundary: boundary, partName: part.name)
        var found = false
        for piece in randomPieces(of: part.content, seed: seed &+ UInt64(index)) {
            do { try scanner.scan(piece) } catch {
                found = true
                break
            }
        }
        guard found == whole else {
            fuzzFailure("scanner found \(found), whole content \(whole), boundary \(boundary.debugDescription)")
        }
        form.append(part.content, name: part.name, fileName: part.fileName, mimeType: "application/octet-stream")
    }

    let encoded: Data
    do {
        guard case .data(let data) = try form.encoded(memoryThreshold: .max) else { fuzzFailure("not in memory") }
        encoded = data
    } catch {
        guard !MultipartFormData.isValidBoundary(boundary) || contentHoldsDelimiter else {
            fuzzFailure("encoding failed: \(error)")
        }
        return 0
    }
    guard MultipartFormData.isValidBoundary(boundary), !contentHoldsDelimiter else {
        fuzzFailure("encoded a form with boundary \(boundary.debugDescription) that its content holds")
    }
    guard Int64(encoded.count) == form.contentLength else { fuzzFailure("contentLength is not the encoded size") }
    let read = readParts(encoded, boundary: boundary)
    guard read.count == parts.count else { fuzzFailure("read \(read.count) parts of \(parts.count)") }
    for (part, back) in zip(parts, read) {
        var disposition = "form-data; name=\"\(MultipartFormData.Part.escaped(part.name))\""
        if let fileName = part.fileName {
            disposition += "; filename=\"\(MultipartFormData.Part.escaped(fileName))\""
        }
        guard back.disposition == disposition, back.content == part.content else {
            fuzzFailure("part \(part) read back as \(back)")
        }
    }
    return 0
}

/// A plain reader: the body is `--b CRLF head CRLF CRLF content` repeated, each part ended by `CRLF`, then `--b--`.
private func readParts(_ body: Data, boundary: String) -> [(disposition: String, content: Data)] {
    let opening = Data("--\(boundary)\r\n".utf8)
    let separator = Data("\r\n--\(boundary)".utf8)
    guard body.starts(with: opening) else { return [] }
    var parts: [(String, Data)] = []
    var rest = body.dropFirst(opening.count)
    while let headEnd = rest.firstRange(of: Data("\r\n\r\n".utf8)), let end = rest.firstRange(of: separator) {
        let head = String(decoding: rest[..<headEnd.lowerBound], as: UTF8.self)
        let disposition =
            head.split(separator: "\r\n").first { $0.hasPrefix("Content-Disposition: ") }
            .map { String($0.dropFirst("Content-Disposition: ".count)) } ?? ""
        parts.append((disposition, Data(rest[headEnd.upperBound..<end.lowerBound])))
        rest = rest[end.upperBound...]
        if rest.starts(with: Data("--\r\n".utf8)) { break }
        rest = rest.dropFirst(2)
    }
    return parts
}
