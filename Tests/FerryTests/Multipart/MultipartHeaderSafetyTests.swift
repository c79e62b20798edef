import Ferry
import Foundation
import Testing

@Suite("MultipartFormData header safety")
struct MultipartHeaderSafetyTests {
    @Test(
        "Quotes, CR and LF in names and file names are percent-escaped",
        arguments: [
            ("a\"b", "a%22b"), ("cr\rlf\nboth\r\n", "cr%0Dlf%0Aboth%0D%0A"), ("plain", "plain"),
            ("x\"; filename=\"evil.sh", "x%22; filename=%22evil.sh"), ("%22 stays", "%22 stays"),
        ])
    func escaping(raw: String, escaped: String) throws {
        // Given
        var form = MultipartFormData()
        form.append(Data("payload".utf8), name: raw, fileName: raw, mimeType: "text/plain")

        // When
        let parts = try MultipartParser.parse(try form.encoded().bytes(), contentType: form.contentType)

        // Then
        let part = try #require(parts.first)
        #expect(parts.count == 1)
        #expect(part.header("Content-Disposition") == "form-data; name=\"\(escaped)\"; filename=\"\(escaped)\"")
        #expect(try part.dispositionParameters() == ["name": escaped, "filename": escaped])
        #expect(part.text == "payload")
    }

    @Test("A name crafted to inject headers or parts stays inside its Content-Disposition")
    func noHeaderInjection() throws {
        // Given
        var form = MultipartFormData(boundary: "fixed")
        let name = "a\"\r\nContent-Type: text/evil\r\n\r\n--fixed\r\nContent-Disposition: form-data; name=\"b"
        form.append("real", name: name)

        // When
        let body = try form.encoded().bytes()
        let parts = try MultipartParser.parse(body, boundary: "fixed")

        // Then one part with one header, and no bare CR/LF outside the framing
        let part = try #require(parts.first)
        #expect(parts.count == 1)
        #expect(part.headers.map(\.name) == ["Content-Disposition"])
        #expect(part.text == "real")
        let escapedName =
            "a%22%0D%0AContent-Type: text/evil%0D%0A%0D%0A--fixed%0D%0AContent-Disposition: form-data; name=%22b"
        #expect(try part.dispositionParameters() == ["name": escapedName])
    }

    @Test(
        "A MIME type with CR, LF or NUL is rejected when encoding",
        arguments: ["text/plain\r\nX-Evil: 1", "a\nb", "a\rb", "a\0b"])
    func invalidMIMEType(mimeType: String) throws {
        var form = MultipartFormData()
        form.append(Data("x".utf8), name: "file", fileName: "x.txt", mimeType: mimeType)

        let error = try #require(throws: FerryError.self) { try form.encoded() }

        let message = try #require(error.reason.invalidRequestMessage)
        #expect(message.contains("MIME type"))
        #expect(form.contentLength == nil)
    }

    @Test(
        "Invalid boundaries are rejected when encoding",
        arguments: [
            "", String(repeating: "b", count: 71), "quote\"d", "trailing space ", "é", "cr\r\nlf", "semi;colon",
            "tab\t",
        ])
    func invalidBoundary(boundary: String) throws {
        var form = MultipartFormData(boundary: boundary)
        form.append("v", name: "n")

        let error = try #require(throws: FerryError.self) { try form.encoded() }

        let message = try #require(error.reason.invalidRequestMessage)
        #expect(message.contains("boundary"))
        #expect(form.contentLength == nil)
    }

    @Test(
        "Every RFC 2046 boundary character is accepted, quoted in Content-Type when needed",
        arguments: [
            ("simple-Boundary_1.0+'", false), (String(repeating: "z", count: 70), false), ("a b", true),
            ("'()+_,-./:=?", true), ("x", false),
        ])
    func validBoundary(boundary: String, quoted: Bool) throws {
        var form = MultipartFormData(boundary: boundary)
        form.append("value", name: "field")

        let body = try form.encoded().bytes()

        let parameter = quoted ? "\"\(boundary)\"" : boundary
        #expect(form.contentType == "multipart/form-data; boundary=\(parameter)")
        #expect(try MultipartParser.parse(body, contentType: form.contentType).map(\.text) == ["value"])
        #expect(form.contentLength == Int64(body.count))
    }
}
