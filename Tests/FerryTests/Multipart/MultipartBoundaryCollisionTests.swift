import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("A boundary that occurs in a part's content")
struct MultipartBoundaryCollisionTests {
    private func isBoundaryCollision(_ error: FerryError?) -> Bool {
        guard case .invalidRequest(let why) = error?.reason else { return false }
        return why.contains("occurs in the content of part")
    }

    @Test func aBoundaryInABytesPartIsRejected() {
        // Given
        var form = MultipartFormData(boundary: "frontier")
        form.append("before\r\n--frontier\r\nafter", name: "text")

        // When / Then
        let error = #expect(throws: FerryError.self) { try form.encoded() }
        #expect(isBoundaryCollision(error))
        #expect(form.contentLength == nil)
    }

    @Test func aBoundaryWithoutTheLineBreakIsRejectedToo() {
        var form = MultipartFormData(boundary: "frontier")
        form.append(Data("x--frontier--".utf8), name: "blob", fileName: "blob.bin")
        let error = #expect(throws: FerryError.self) { try form.encoded() }
        #expect(isBoundaryCollision(error))
    }

    @Test func theBoundaryWithoutItsDashesIsContent() throws {
        var form = MultipartFormData(boundary: "frontier")
        form.append("the frontier - is - fine", name: "text")
        let parts = try MultipartParser.parse(try form.encoded().bytes(), contentType: form.contentType)
        #expect(parts.map(\.text) == ["the frontier - is - fine"])
    }

    @Test func aBoundarySplitAcrossTwoReadsOfAFileIsRejectedAndNoFileIsLeft() throws {
        // Given: the delimiter straddles the 256 KiB read size.
        let directory = try TemporaryDirectory()
        let source = directory.file("big.bin")
        var content = Data(repeating: UInt8(ascii: "a"), count: 256 * 1024 - 4)
        content += Data("--frontier".utf8) + Data(repeating: UInt8(ascii: "b"), count: 100)
        try content.writeUnsynced(to: source)
        var form = MultipartFormData(boundary: "frontier")
        form.append(fileAt: source, name: "upload")
        let target = directory.file("encoded.bin")

        // When / Then
        let error = #expect(throws: FerryError.self) { try form.writeEncoded(to: target) }
        #expect(isBoundaryCollision(error))
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test(arguments: TransportKind.allCases)
    func aRequestWithACollidingBoundaryFailsBeforeSending(transport: TransportKind) async throws {
        // Given
        let live = try LiveServer(transport: transport)
        var form = MultipartFormData(boundary: "frontier")
        form.append("--frontier", name: "text")

        // When
        let response = await live.session.post("upload", body: .multipart(form)).response

        // Then
        #expect(isBoundaryCollision(response.error))
        #expect(live.server.requestCount == 0)
    }
}
