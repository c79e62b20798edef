import Foundation
import Testing

@testable import Ferry

@Suite("Suggested file names")
struct SuggestedFileNameTests {
    @Test(arguments: [
        ("../../escape.txt", "escape.txt"),
        ("/etc/passwd", "passwd"),
        ("C:\\Windows\\evil.exe", "evil.exe"),
        ("..\\..\\boot.ini", "boot.ini"),
        ("dir/", "dir"),
        ("/", "download"),
        ("", "download"),
        (".", "download"),
        ("..", "download"),
        ("...", "download"),
        ("   ", "download"),
        ("\u{0}", "download"),
        ("a\u{0}b.txt", "ab.txt"),
        ("line\r\nbreak.txt", "linebreak.txt"),
        ("\u{202E}txt.exe", "txt.exe"),
        (".bashrc", "bashrc"),
        ("%2e%2e%2fsecret", "%2e%2e%2fsecret"),
        // Found by fuzzing: a combining mark after '/', '\\' or '.' made one Character of the two, which hid the
        // separator from a split by Character and the dot from `hasPrefix(".")`.
        ("a/\u{33A}b.txt", "\u{33A}b.txt"),
        ("a\\\u{301}b.txt", "\u{301}b.txt"),
        (".\u{301}hidden", "\u{301}hidden"),
        ("../\u{301}../\u{301}etc", "\u{301}etc"),
    ])
    func aNameIsOnePlainPathComponent(suggested: String, expected: String) {
        #expect(SuggestedFileName.sanitized(suggested) == expected)
    }

    @Test func aLongNameIsCutToAWholeCharacterWithin255Bytes() {
        let name = SuggestedFileName.sanitized(String(repeating: "é", count: 200))
        #expect(name == String(repeating: "é", count: 127))
        #expect(name.utf8.count == 254)
    }

    @Test(arguments: [
        ("attachment; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd", "../../etc/passwd"),
        ("attachment; filename*=utf-8'en'%E2%82%AC%20rates.txt", "€ rates.txt"),
        ("attachment; filename=\"plain.txt\"; filename*=UTF-8''fancy.txt", "fancy.txt"),
        ("attachment; filename*=ISO-8859-1''latin.txt; filename=\"plain.txt\"", "plain.txt"),
        ("attachment; filename*=UTF-8''%ZZ; filename=\"plain.txt\"", "plain.txt"),
        ("attachment; filename=\"say \\\"hi\\\".txt\"", "say \"hi\".txt"),
    ])
    func theDispositionParameterIsRead(disposition: String, expected: String) {
        #expect(SuggestedFileName.fromContentDisposition(disposition) == expected)
    }

    @Test(arguments: [
        ("http://127.0.0.1/files/..%2F..%2Fescape.txt", nil, "escape.txt"),
        ("http://127.0.0.1/files/%2E%2E", nil, "download"),
        ("http://127.0.0.1/", nil, "download"),
        ("http://127.0.0.1/a.txt", "attachment; filename*=UTF-8''%2Ftmp%2Fx", "x"),
        ("http://127.0.0.1/a.txt", "attachment; filename=\"..\"", "download"),
    ])
    func theResolvedFileLiesDirectlyInTheDirectory(url: String, disposition: String?, expected: String) throws {
        let directory = URL(fileURLWithPath: "/tmp/ferry-downloads", isDirectory: true)
        let target = DownloadTarget(destination: .directory(directory), options: DownloadOptions())
        var headers: HTTPHeaders = [:]
        if let disposition { headers.add(name: "Content-Disposition", value: disposition) }
        let head = HTTPResponse(statusCode: 200, headers: headers, url: try #require(URL(string: url)))
        let file = try target.resolve(for: head)
        #expect(file.lastPathComponent == expected)
        #expect(file.deletingLastPathComponent().path == directory.path)
        // The public name is the same one: what `ferry -d` and users' own code start from.
        #expect(head.suggestedFilename == expected)
    }
}
