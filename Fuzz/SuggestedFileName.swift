// libFuzzer target: SuggestedFileName and DownloadTarget's choice of a file in a directory.
// Properties: whatever a server puts in Content-Disposition (`filename`, RFC 5987 `filename*`, percent escapes,
// `../`, absolute paths, backslashes, NUL, very long names) or in the URL path, the name is one plain path
// component: non-empty, at most 255 UTF-8 bytes, no '/', '\' or NUL or other control character, no leading '.',
// not '.' or '..'; and the file Ferry resolves lies directly in the chosen directory.
import Foundation

@testable import Ferry

private let directory = URL(fileURLWithPath: "/tmp/ferry-fuzz-downloads", isDirectory: true)

/// libFuzzer's entry point: checks the property above on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSuggestedFileName(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let disposition = String(decoding: input.field(separatedBy: 0), as: UTF8.self)
    let path = String(decoding: input.rest(), as: UTF8.self)

    let candidates = [
        SuggestedFileName.fromContentDisposition(disposition), disposition, path,
        SuggestedFileName.fromContentDisposition("attachment; filename*=UTF-8''" + path),
    ]
    for suggested in candidates.compactMap({ $0 }) {
        let name = SuggestedFileName.sanitized(suggested)
        check(name, from: suggested)
    }

    var components = URLComponents()
    components.scheme = "http"
    components.host = "127.0.0.1"
    components.path = "/" + path
    guard let url = components.url else { return 0 }
    let target = DownloadTarget(destination: .directory(directory), options: DownloadOptions())
    let head = HTTPResponse(statusCode: 200, headers: ["Content-Disposition": disposition], url: url)
    do {
        let file = try target.resolve(for: head)
        guard file.deletingLastPathComponent().standardizedFileURL.path == directory.standardizedFileURL.path else {
            fuzzFailure("\(disposition.debugDescription) / \(url) resolved outside the directory: \(file.path)")
        }
        check(file.lastPathComponent, from: disposition)
    } catch {
        fuzzFailure("resolving \(disposition.debugDescription) / \(url) threw \(error)")
    }
    return 0
}

private func check(_ name: String, from suggested: String) {
    let bytes = Array(name.utf8)
    guard !bytes.isEmpty, bytes.count <= 255, bytes.first != UInt8(ascii: "."),
        !bytes.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 == 0x7F }),
        name != ".", name != ".."
    else { fuzzFailure("\(suggested.debugDescription) became unsafe name \(name.debugDescription)") }
}
