import Ferry
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How `ferry` prints responses.
enum Output {
    static func print(_ response: DataResponse<Data>) {
        if let head = response.response {
            Swift.print("\(head.httpVersion ?? "HTTP/1.1") \(head.statusCode) \(reasonPhrase(head.statusCode))")
            for header in head.headers { Swift.print(header) }
            Swift.print()
        }
        if let data = response.data, !data.isEmpty { Swift.print(body(data, head: response.response)) }
        if let error = response.error { self.error(error) }
        Swift.print("\n⏱  \(response.timeline)")
        Swift.print("   \(response.metrics.bytesReceived) B received, \(response.metrics.redirectCount) redirects")
    }

    /// The body as text: pretty-printed JSON when it parses, else UTF-8 text, else a byte count.
    static func body(_ data: Data, head: HTTPResponse?) -> String {
        if head?.mimeType?.contains("json") == true || data.first == UInt8(ascii: "{")
            || data.first == UInt8(ascii: "[")
        {
            if let json = try? JSON(parsing: data) {
                return String(decoding: json.encoded(pretty: true), as: UTF8.self)
            }
        }
        if let text = String(validating: data, as: UTF8.self) { return text }
        return "<\(data.count) bytes of binary data>"
    }

    static func error(_ error: any Error) {
        FileHandle.standardError.write(Data("✗ \(error)\n".utf8))
    }

    static func reasonPhrase(_ status: Int) -> String {
        HTTPURLResponse.localizedString(forStatusCode: status).capitalized
    }
}
