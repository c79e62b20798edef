import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("Uploads", .serialized)
struct UploadTests {
    struct Receipt: Decodable, Sendable {
        var bytes: Int
        var checksum: String
        var contentType: String?
        var chunked: Bool
    }

    @Test(arguments: TransportKind.allCases) func aFileIsStreamedFromDiskWithItsLength(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let file = directory.file("upload.bin")
        let payload = TestServer.patternBytes(count: 3_000_000)
        try payload.writeUnsynced(to: file)
        let task = live.session.post("upload", body: .file(file))
        async let decoded = task.serializingDecodable(Receipt.self)
        var last: TransferProgress?
        for await progress in task.uploadProgress { last = progress }
        let receipt = try await decoded
        #expect(receipt.bytes == payload.count)
        #expect(receipt.checksum == TestServer.checksum(of: payload))
        #expect(receipt.chunked == false)
        #expect(last?.isFinished == true)
        #expect(last?.completedBytes == Int64(payload.count))
        #expect(await task.response.metrics.bytesSent == Int64(payload.count))
    }

    @Test(arguments: TransportKind.allCases) func aRequestWithoutABodyEndsItsUploadProgressAtZero(
        transport: TransportKind
    ) async throws {
        // Given: a GET, whose upload progress is made only when someone asks for it.
        let live = try LiveServer(transport: transport)
        let task = live.session.get("get")

        // When: iterated while it runs, and again after it finished.
        var during: [TransferProgress] = []
        for await progress in task.uploadProgress { during.append(progress) }
        _ = try await task.value
        var after: [TransferProgress] = []
        for await progress in task.uploadProgress { after.append(progress) }

        // Then: both end, with a finished snapshot of no bytes.
        #expect(during.last?.isFinished == true)
        #expect(during.last?.completedBytes == 0)
        #expect(after.map(\.isFinished) == [true])
        #expect(after.last?.completedBytes == 0)
    }

    @Test(arguments: TransportKind.allCases) func anAsyncSequenceIsSent(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let pieces = (0..<50).map { TestServer.patternBytes(count: 10_000, offset: $0 * 10_000) }
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        for piece in pieces { continuation.yield(piece) }
        continuation.finish()
        let before = ferryTemporaryFiles("ferry-upload-")
        let task = live.session.put("upload", body: .stream(chunks, contentType: "application/x-test"))
        let receipt = try await task.serializingDecodable(Receipt.self)
        #expect(receipt.bytes == 500_000)
        #expect(receipt.checksum == TestServer.checksum(of: TestServer.patternBytes(count: 500_000)))
        #expect(receipt.contentType == "application/x-test")
        _ = consume task
        // The spooled copy is deleted once the request is done.
        try await waitUntil { ferryTemporaryFiles("ferry-upload-").subtracting(before).isEmpty }
    }

    @Test(.ownThreads, arguments: TransportKind.allCases) func aLargeMultipartFormGoesThroughATemporaryFile(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let file = directory.file("photo.png")
        try TestServer.patternBytes(count: 2_000_000).writeUnsynced(to: file)
        var form = MultipartFormData()
        form.append("Ada", name: "name")
        form.append(fileAt: file, name: "photo")
        let expected = directory.file("expected.multipart")
        try form.writeEncoded(to: expected)
        let encoded = try Data(contentsOf: expected)
        let receipt = try await live.session.post("upload", body: .multipart(form, memoryThreshold: 1 << 20))
            .serializingDecodable(Receipt.self)
        #expect(receipt.bytes == encoded.count)
        #expect(receipt.checksum == TestServer.checksum(of: encoded))
        #expect(receipt.contentType == form.contentType)
    }

    @Test(arguments: TransportKind.allCases) func anUnreadableFileFailsBeforeSending(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let missing = URL(fileURLWithPath: "/nonexistent/ferry/upload.bin")
        let error = await #expect(throws: FerryError.self) {
            try await live.session.post("upload", body: .file(missing)).value
        }
        guard case .fileSystemFailed = error?.reason else {
            Issue.record("expected a file system failure, got \(String(describing: error))")
            return
        }
        #expect(live.server.requestCount == 0)
    }
}
