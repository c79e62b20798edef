import Foundation
import Testing

@testable import Ferry

/// Tests that create or look for `ferry-multipart-*.tmp` files in the system temporary directory run one at a time,
/// so the listings they compare are not disturbed by each other.
@Suite("MultipartFormData encoding", .serialized)
struct MultipartEncodingTests {
    @Test("contentLength equals the encoded size in memory and in a file")
    func contentLengthMatches() throws {
        // Given
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        var form = MultipartFormData()
        form.append("text", name: "t")
        form.append(MultipartFixtures.pattern(count: 1234), name: "d", fileName: "d.bin")
        form.append(fileAt: try folder.file("f.csv", contents: MultipartFixtures.pattern(count: 70_000)), name: "f")
        form.append(fileAt: try folder.file("empty.txt", contents: Data()), name: "e")
        let length = try #require(form.contentLength)

        // When
        let inMemory = try form.encoded()
        let inFile = try form.encoded(memoryThreshold: 0)
        defer { if case .file(let url, _) = inFile { try? FileManager.default.removeItem(at: url) } }

        // Then
        #expect(try #require(inMemory.inMemory).count == Int(length))
        guard case .file(let url, let fileLength) = inFile else {
            Issue.record("expected a file encoding, got \(inFile)")
            return
        }
        #expect(fileLength == length)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber
        #expect(size?.int64Value == length)
        #expect(try inFile.bytes() == inMemory.bytes())
    }

    @Test("A body at the threshold stays in memory; one byte over goes to a file")
    func thresholdEdge() throws {
        var form = MultipartFormData()
        form.append(MultipartFixtures.pattern(count: 4096), name: "blob", fileName: "blob.bin")
        let length = try #require(form.contentLength)

        let atThreshold = try form.encoded(memoryThreshold: length)
        let overThreshold = try form.encoded(memoryThreshold: length - 1)
        defer { if case .file(let url, _) = overThreshold { try? FileManager.default.removeItem(at: url) } }

        #expect(atThreshold.inMemory?.count == Int(length))
        guard case .file(_, let fileLength) = overThreshold else {
            Issue.record("expected a file encoding, got \(overThreshold)")
            return
        }
        #expect(fileLength == length)
        #expect(try overThreshold.bytes() == atThreshold.bytes())
    }

    @Test("A large body is streamed to a private temporary file identical to the in-memory encoding", .ownThreads)
    func largeBodyToTemporaryFile() throws {
        // Given a 3 MB file part and a 1 KiB threshold
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        let contents = MultipartFixtures.pattern(count: 3_000_000)
        var form = MultipartFormData()
        form.append("before", name: "a")
        form.append(fileAt: try folder.file("big.mp4", contents: contents), name: "video")
        form.append("after", name: "z")

        // When
        let encoded = try form.encoded(memoryThreshold: 1024)
        guard case .file(let url, let length) = encoded else {
            Issue.record("expected a file encoding, got \(encoded)")
            return
        }
        defer { try? FileManager.default.removeItem(at: url) }

        // Then
        #expect(
            url.deletingLastPathComponent().standardizedFileURL.path
                == FileManager.default.temporaryDirectory.standardizedFileURL.path)
        #expect(url.lastPathComponent.hasPrefix("ferry-multipart-") && url.lastPathComponent.hasSuffix(".tmp"))
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let bytes = try Data(contentsOf: url)
        #expect(Int64(bytes.count) == length)
        #expect(length == form.contentLength)
        #expect(bytes == (try form.encoded(memoryThreshold: .max).inMemory))
        let parts = try MultipartParser.parse(bytes, contentType: form.contentType)
        #expect(parts.map(\.text) == ["before", nil, "after"])
        #expect(parts.dropFirst().first?.body == contents)
        #expect(parts.dropFirst().first?.header("Content-Type") == "video/mp4")
    }

    @Test("File parts are copied in chunks of at most 256 KiB, never read whole", .ownThreads)
    func chunkedCopy() throws {
        // Given a 1 MB file, four chunks and a bit
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        let contents = MultipartFixtures.pattern(count: 1_000_000)
        var form = MultipartFormData(boundary: "chunks")
        form.append(fileAt: try folder.file("big.bin", contents: contents), name: "big")
        var sink = RecordingSink()

        // When
        try MultipartLayout(form).write(into: &sink)

        // Then
        #expect(sink.writeSizes.max() == 256 * 1024)
        // The part's head, four chunks of the file, the CRLF, the closing delimiter.
        #expect(sink.writeSizes.count == 7)
        #expect(Array(sink.writeSizes.dropFirst().prefix(4)) == [262_144, 262_144, 262_144, 213_568])
        let parts = try MultipartParser.parse(sink.data, boundary: "chunks")
        #expect(parts.first?.body == contents)
    }

    @Test("A missing file throws invalidRequest and leaves no temporary file behind", arguments: [Int64(0), 10 << 20])
    func missingFile(memoryThreshold: Int64) throws {
        // Given
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        let missing = folder.url.appendingPathComponent("missing.png")
        var form = MultipartFormData()
        form.append(MultipartFixtures.pattern(count: 10_000), name: "first", fileName: "first.bin")
        form.append(fileAt: missing, name: "gone")
        // The temporary file goes into the test's own folder: other suites write `ferry-multipart-*.tmp` files into
        // the system temporary directory while this runs.
        let before = try folder.listing()

        // When
        let error = try #require(throws: FerryError.self) {
            try form.encoded(memoryThreshold: memoryThreshold, temporaryDirectory: folder.url)
        }

        // Then
        let message = try #require(error.reason.invalidRequestMessage)
        #expect(message.contains("file") && message.contains("missing.png"))
        #expect(error.underlyingError != nil)
        #expect(try folder.listing() == before)
        #expect(form.contentLength == nil)
    }

    @Test("A directory given as a file part is rejected")
    func directoryPart() throws {
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        var form = MultipartFormData()
        form.append(fileAt: folder.url, name: "dir")

        let error = try #require(throws: FerryError.self) { try form.encoded(memoryThreshold: 0) }

        #expect(error.reason.invalidRequestMessage?.contains("not a regular file") == true)
        #expect(form.contentLength == nil)
    }

    @Test(
        "A file that grows or shrinks after it was measured fails the encoding and nothing is left behind",
        .ownThreads, arguments: [-1, 1, 300_000])
    func fileChangesSize(delta: Int) throws {
        // Given a form measured while its file had 400 000 bytes
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        let output = try MultipartTestFolder()
        defer { output.remove() }
        let file = try folder.file("changing.bin", contents: MultipartFixtures.pattern(count: 400_000))
        var form = MultipartFormData()
        form.append(fileAt: file, name: "changing")
        let layout = try MultipartLayout(form)

        // When the file changes size before it is copied
        try MultipartFixtures.pattern(count: 400_000 + delta).writeUnsynced(to: file)
        let toFile = try #require(throws: FerryError.self) {
            try layout.write(toFileAt: output.url.appendingPathComponent("ferry-multipart-test.tmp"))
        }
        let inMemory = try #require(throws: FerryError.self) { try layout.encodedData() }

        // Then
        for error in [toFile, inMemory] {
            #expect(error.reason.invalidRequestMessage?.contains("changed size") == true)
            #expect(error.reason.invalidRequestMessage?.contains("changing.bin") == true)
        }
        #expect(try output.listing().isEmpty)
    }

    @Test("A file that disappears after it was measured leaves no temporary file behind")
    func fileDisappears() throws {
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        let output = try MultipartTestFolder()
        defer { output.remove() }
        let file = try folder.file("vanishing.txt", contents: MultipartFixtures.pattern(count: 1000))
        var form = MultipartFormData()
        form.append(fileAt: file, name: "vanishing")
        let layout = try MultipartLayout(form)
        try FileManager.default.removeItem(at: file)

        let error = try #require(throws: FerryError.self) {
            try layout.write(toFileAt: output.url.appendingPathComponent("ferry-multipart-test.tmp"))
        }

        #expect(error.reason.invalidRequestMessage?.contains("vanishing.txt") == true)
        #expect(error.underlyingError != nil)
        #expect(try output.listing().isEmpty)
    }

    @Test("writeEncoded(to:) writes the same bytes as the in-memory encoding, replacing an existing file", .ownThreads)
    func writeEncoded() throws {
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        var form = MultipartFormData()
        form.append("field", name: "f")
        form.append(
            fileAt: try folder.file("doc.pdf", contents: MultipartFixtures.pattern(count: 600_000)), name: "doc")
        let destination = try folder.file("body.multipart", contents: Data(repeating: 7, count: 2_000_000))

        try form.writeEncoded(to: destination)

        #expect(try Data(contentsOf: destination) == form.encoded().inMemory)
    }

    @Test("writeEncoded(to:) leaves no file when it fails")
    func writeEncodedFailure() throws {
        let folder = try MultipartTestFolder()
        defer { folder.remove() }
        let destination = folder.url.appendingPathComponent("body.multipart")
        var invalid = MultipartFormData(boundary: "bad\"boundary")
        invalid.append("x", name: "x")
        var missing = MultipartFormData()
        missing.append(fileAt: folder.url.appendingPathComponent("nope.bin"), name: "nope")

        for form in [invalid, missing] {
            let error = try #require(throws: FerryError.self) { try form.writeEncoded(to: destination) }
            #expect(error.reason.invalidRequestMessage != nil)
            #expect(!FileManager.default.fileExists(atPath: destination.path))
        }
    }
}

/// A sink that keeps the bytes and the size of every write.
private struct RecordingSink: MultipartSink {
    var data = Data()
    var writeSizes: [Int] = []

    mutating func write(_ bytes: Data) {
        data.append(bytes)
        writeSizes.append(bytes.count)
    }
}
