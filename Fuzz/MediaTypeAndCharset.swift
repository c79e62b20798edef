// libFuzzer target: MediaType (Content-Type parsing) and the charset decoding of StringResponseSerializer.
// Properties: parsing is total; the essence and parameter names come out lowercased and trimmed; a type always
// matches itself and `*/*` matches everything; decoding a body either throws the typed failure or returns text,
// and with a UTF-8 (or no) charset the text is exactly the bytes' UTF-8 decoding when they are valid.
import Foundation

@testable import Ferry

/// libFuzzer's entry point: checks the property above on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMediaTypeAndCharset(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let contentType = String(decoding: input.field(separatedBy: 0), as: UTF8.self)
    let body = Data(input.rest())

    let mediaType = MediaType(parsing: contentType)
    guard mediaType.essence == mediaType.essence.lowercased(), mediaType.essence == mediaType.essence.trimmed else {
        fuzzFailure("essence \(mediaType.essence.debugDescription) is not lowercased and trimmed")
    }
    for name in mediaType.parameters.keys where name != name.lowercased() || name != name.trimmed {
        fuzzFailure("parameter name \(name.debugDescription) is not lowercased and trimmed")
    }
    guard mediaType.matches(mediaType) || mediaType.essence.isEmpty || !mediaType.essence.contains("/") else {
        fuzzFailure("\(mediaType.essence.debugDescription) does not match itself")
    }
    guard MediaType(parsing: "*/*").matches(mediaType) else { fuzzFailure("*/* does not match \(mediaType)") }

    let url = URL(string: "http://127.0.0.1/")!
    let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": contentType], url: url)
    let request = Request(url: url)
    let charset = mediaType.parameters["charset"]
    do {
        let text = try StringResponseSerializer().serialize(request: request, response: response, data: body)
        let isUTF8 = charset.map { String.Encoding(charset: $0) == .utf8 } ?? true
        if isUTF8, let valid = String(validating: body, as: UTF8.self),
            !text.unicodeScalars.elementsEqual(valid.unicodeScalars)
        {
            fuzzFailure("UTF-8 body decoded as \(text.debugDescription)")
        }
        if charset.flatMap(String.Encoding.init(charset:)) == nil, body.count > 0, text.isEmpty {
            fuzzFailure("a non-empty body decoded to nothing")
        }
    } catch is SerializationFailure {
        guard charset.flatMap(String.Encoding.init(charset:)) != nil else {
            fuzzFailure("decoding without a known charset failed")
        }
    } catch {
        fuzzFailure("unexpected error \(error)")
    }
    return 0
}
