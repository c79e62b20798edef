import Ferry
import Foundation
import Testing

@Suite("MultipartFormData round trips")
struct MultipartFormDataTests {
    @Test("The wire format is delimiter, headers, blank line, bytes, CRLF, then the closing delimiter")
    func wireFormat() throws {
        // Given
        var form = MultipartFormData(boundary: "XyZ")
        form.append("v", name: "a")
        form.append(Data([0x00, 0xFF]), name: "b", fileName: "f.bin")

        // When
        let body = try #require(try form.encoded().inMemory)

        // Then
        var expected = Data("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n".utf8)
        expected += Data("--XyZ\r\nContent-Disposition: form-data; name=\"b\"; filename=\"f.bin\"\r\n".utf8)
        expected += Data("Content-Type: application/octet-stream\r\n\r\n".utf8)
        expected += Data([0x00, 0xFF]) + Data("\r\n--XyZ--\r\n".utf8)
        #expect(body == expected)
        #expect(form.contentLength == Int64(expected.count))
    }

    @Test("An empty form encodes to just the closing delimiter")
    func emptyForm() throws {
        let form = MultipartFormData(boundary: "empty-boundary")
        let body = try #require(try form.encoded().inMemory)
        #expect(body == Data("--empty-boundary--\r\n".utf8))
        #expect(form.contentLength == Int64(body.count))
        #expect(try MultipartParser.parse(body, contentType: form.contentType).isEmpty)
    }

    @Test("Text fields round-trip in order, with no file name and no Content-Type")
    func textFields() throws {
        // Given
        var form = MultipartFormData()
        form.append("Ferry", name: "title")
        form.append("", name: "empty")
        form.append("line 1\r\nline 2 -- not a boundary", name: "notes")
        form.append("again", name: "title")

        // When
        let parts = try MultipartParser.parse(try form.encoded().bytes(), contentType: form.contentType)

        // Then
        #expect(parts.map(\.text) == ["Ferry", "", "line 1\r\nline 2 -- not a boundary", "again"])
        #expect(
            try parts.map { try $0.dispositionParameters() } == [
                ["name": "title"], ["name": "empty"], ["name": "notes"], ["name": "title"],
            ])
        #expect(parts.allSatisfy { $0.headers.count == 1 && $0.header("Content-Type") == nil })
    }

    @Test("Unicode names and values are sent as UTF-8")
    func unicode() throws {
        var form = MultipartFormData()
        form.append("Grüße, 世界 👋🏽", name: "名前")
        form.append(Data("é".utf8), name: "émoji 😀", fileName: "résumé.txt")

        let parts = try MultipartParser.parse(try form.encoded().bytes(), contentType: form.contentType)

        #expect(parts.count == 2)
        #expect(parts.first?.text == "Grüße, 世界 👋🏽")
        #expect(try parts.first?.dispositionParameters() == ["name": "名前"])
        #expect(try parts.last?.dispositionParameters() == ["name": "émoji 😀", "filename": "résumé.txt"])
        #expect(parts.last?.header("Content-Type") == "text/plain")
    }

    @Test("Data parts carry their file name and MIME type, explicit or inferred from the file name")
    func dataParts() throws {
        // Given
        let bytes = MultipartFixtures.pattern(count: 600)
        var form = MultipartFormData()
        form.append(bytes, name: "raw")
        form.append(bytes, name: "explicit", fileName: "a.dat", mimeType: "application/x-custom")
        form.append(bytes, name: "inferred", fileName: "photo.PNG")
        form.append(bytes, name: "typed", mimeType: "application/json")

        // When
        let parts = try MultipartParser.parse(try form.encoded().bytes(), contentType: form.contentType)

        // Then
        #expect(parts.count == 4)
        #expect(parts.allSatisfy { $0.body == bytes })
        #expect(
            parts.map { $0.header("Content-Type") } == [nil, "application/x-custom", "image/png", "application/json"])
        #expect(try parts.map { try $0.dispositionParameters()["filename"] } == [nil, "a.dat", "photo.PNG", nil])
    }

    @Test(
        "File parts infer their MIME type from the extension",
        arguments: [
            ("doc.json", "application/json"), ("a.txt", "text/plain"), ("index.html", "text/html"),
            ("t.csv", "text/csv"), ("feed.xml", "application/xml"), ("i.png", "image/png"), ("i.jpg", "image/jpeg"),
            ("I.JPEG", "image/jpeg"), ("a.gif", "image/gif"), ("a.webp", "image/webp"), ("d.pdf", "application/pdf"),
            ("a.zip", "application/zip"), ("a.tar.gz", "application/gzip"), ("v.mp4", "video/mp4"),
            ("s.mp3", "audio/mpeg"), ("s.wav", "audio/wav"), ("b.bin", "application/octet-stream"),
            ("x.unknownext", "application/octet-stream"), ("Makefile", "application/octet-stream"),
        ])
    func inferredMIMEType(fileName: String, mimeType: String) throws {
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        let contents = Data("contents of \(fileName)".utf8)
        var form = MultipartFormData()
        form.append(fileAt: try folder.file(fileName, contents: contents), name: "upload")

        let parts = try MultipartParser.parse(try form.encoded().bytes(), contentType: form.contentType)

        let part = try #require(parts.first)
        #expect(parts.count == 1)
        #expect(part.header("Content-Type") == mimeType)
        #expect(try part.dispositionParameters() == ["name": "upload", "filename": fileName])
        #expect(part.body == contents)
    }

    @Test("A file part's explicit file name and MIME type win over the URL's")
    func explicitFileNameAndType() throws {
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        let url = try folder.file("local-name.png", contents: Data("PNG?".utf8))
        var form = MultipartFormData()
        form.append(fileAt: url, name: "avatar", fileName: "remote.txt", mimeType: "image/x-custom")

        let part = try #require(
            try MultipartParser.parse(try form.encoded().bytes(), contentType: form.contentType).first)

        #expect(try part.dispositionParameters() == ["name": "avatar", "filename": "remote.txt"])
        #expect(part.header("Content-Type") == "image/x-custom")
        #expect(part.text == "PNG?")
    }

    @Test("Files are read when the form is encoded, not when they are appended")
    func filesReadLazily() throws {
        // Given a file part whose file does not exist yet
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("later.txt")
        var form = MultipartFormData()
        form.append(fileAt: url, name: "later")
        #expect(form.contentLength == nil)

        // When the file appears afterwards
        _ = try folder.file("later.txt", contents: Data("written after append".utf8))

        // Then encoding sends its current contents
        let body = try form.encoded().bytes()
        #expect(try MultipartParser.parse(body, contentType: form.contentType).first?.text == "written after append")
        #expect(form.contentLength == Int64(body.count))
    }

    @Test("A symbolic link to a file is measured and sent as the file it points to")
    func symbolicLink() throws {
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        let target = try folder.file("target.bin", contents: MultipartFixtures.pattern(count: 5000))
        let link = folder.url.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        var form = MultipartFormData()
        form.append(fileAt: link, name: "linked")

        let body = try form.encoded().bytes()

        let part = try #require(try MultipartParser.parse(body, contentType: form.contentType).first)
        #expect(part.body == MultipartFixtures.pattern(count: 5000))
        #expect(try part.dispositionParameters()["filename"] == "link.json")
        #expect(part.header("Content-Type") == "application/json")
        #expect(form.contentLength == Int64(body.count))
    }

    @Test("The default boundary is 'ferry-' and 32 hex digits, fresh for every form")
    func defaultBoundary() {
        let first = MultipartFormData()
        let second = MultipartFormData()
        #expect(first.boundary.hasPrefix("ferry-"))
        #expect(first.boundary.count == 38)
        #expect(first.boundary.dropFirst(6).allSatisfy { "0123456789abcdef".contains($0) })
        #expect(first.boundary != second.boundary)
        #expect(first.contentType == "multipart/form-data; boundary=\(first.boundary)")
    }
}
