import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("Downloads to disk", .serialized)
struct DownloadTests {
    @Test(arguments: TransportKind.allCases) func theFrontDoorLinesWork(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let destinationFileURL = directory.file("nested/deeper/range.bin")
        let download = live.session.download("range/300000", to: destinationFileURL)
        async let placed = download.value  // the transfer runs in this child task, structured
        var snapshots: [TransferProgress] = []
        for await progress in download.downloadProgress { snapshots.append(progress) }
        let file: URL = try await placed
        #expect(file == destinationFileURL)
        #expect(try Data(contentsOf: file) == TestServer.patternBytes(count: 300_000))
        #expect(snapshots.last?.isFinished == true)
        #expect(snapshots.last?.completedBytes == 300_000)
        #expect(snapshots.last?.fractionCompleted == 1)
        let response = await download.response
        #expect(response.metrics.bytesReceived == 300_000)
        #expect(response.timeline.latency != nil)
        #expect(directory.contents == ["nested"])
    }

    @Test(arguments: TransportKind.allCases) func anExistingFileIsKeptUnlessReplacing(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let target = directory.file("file.bin")
        try Data("precious".utf8).writeUnsynced(to: target)
        let error = await #expect(throws: FerryError.self) {
            try await live.session.download("bytes/100", to: target).value
        }
        #expect(error?.reason == .destinationExists(target))
        #expect(try Data(contentsOf: target) == Data("precious".utf8))
        let replaced = try await live.session.download(
            "bytes/100", to: target, options: DownloadOptions(replacesExistingFile: true)
        ).value
        #expect(try Data(contentsOf: replaced) == TestServer.patternBytes(count: 100))
        #expect(directory.contents == ["file.bin"])
    }

    @Test(arguments: TransportKind.allCases) func anErrorStatusLeavesNothingBehind(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let before = ferryTemporaryFiles("ferry-download-")
        let response = await live.session.download("status/404", to: directory.file("missing.bin")).response
        #expect(response.error?.reason == .unacceptableStatus(404))
        #expect(response.resumeData == nil)
        #expect(directory.contents.isEmpty)
        #expect(ferryTemporaryFiles("ferry-download-").subtracting(before).isEmpty)
    }

    @Test(arguments: TransportKind.allCases) func anUnwritableDestinationFailsClearly(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let blocker = directory.file("not-a-directory")
        try Data("x".utf8).writeUnsynced(to: blocker)
        let error = await #expect(throws: FerryError.self) {
            try await live.session.download("bytes/10", to: blocker.appending(path: "file.bin")).value
        }
        guard case .fileSystemFailed = error?.reason else {
            Issue.record("expected a file system failure, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: TransportKind.allCases) func cancellingMidDownloadLeavesNothingAtTheDestination(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let target = directory.file("drip.bin")
        let before = ferryTemporaryFiles("ferry-download-")
        let download = live.session.download(
            live.server.url("/drip?numbytes=100&duration=5"), to: target,
            options: DownloadOptions(keepsPartialFileForResume: false))
        download.resume()
        for await progress in download.downloadProgress where progress.completedBytes > 0 {
            download.cancel()
            break
        }
        let response = await download.response
        #expect(response.error?.reason == .cancelled)
        #expect(response.resumeData == nil)
        #expect(directory.contents.isEmpty)
        #expect(ferryTemporaryFiles("ferry-download-").subtracting(before).isEmpty)
    }

    @Test(arguments: TransportKind.allCases) func aCancelledDownloadKeepsItsPartialFileForResume(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let target = directory.file("slow.bin")
        // /range bodies carry an ETag; a slow reader is simulated by cancelling after the first bytes.
        live.server.setRoute("/slow-range") { request in
            TestResponse(
                status: 200, headers: [("ETag", "\"slow-v1\""), ("Content-Length", "4000")],
                body: .paced(
                    [
                        Data(repeating: 1, count: 1000), Data(repeating: 2, count: 1000),
                        Data(repeating: 3, count: 1000), Data(repeating: 4, count: 1000),
                    ], interval: Duration.seconds(1).scaled))  // room for a slow progress consumer (sanitizers)
        }
        let download = live.session.download("slow-range", to: target)
        download.resume()
        for await progress in download.downloadProgress where progress.completedBytes >= 1000 {
            download.cancel()
            break
        }
        let resume = try #require(await download.resumeData)
        #expect(resume.byteCount >= 1000)
        #expect(resume.entityTag == "\"slow-v1\"")
        #expect(FileManager.default.fileExists(atPath: resume.partialFile.path))
        #expect(directory.contents.isEmpty)
        resume.discard()
        #expect(!FileManager.default.fileExists(atPath: resume.partialFile.path))
    }

    @Test(arguments: TransportKind.allCases) func aResetDownloadResumesWithARangeRequest(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let target = directory.file("resumed.bin")
        let first = await live.session.download(live.server.url("/range/200000?reset-at=70000"), to: target).response
        #expect(first.error != nil)
        #expect(!FileManager.default.fileExists(atPath: target.path))
        let resume = try #require(first.resumeData)
        #expect(resume.byteCount > 0)
        #expect(resume.entityTag == "\"range-200000\"")

        let second = await live.session.download(resuming: resume, to: target).response
        #expect(second.statusCode == 206)
        #expect(try Data(contentsOf: try second.result.get()) == TestServer.patternBytes(count: 200_000))
        #expect(!FileManager.default.fileExists(atPath: resume.partialFile.path))
        let lastRequest = try #require(live.server.receivedRequests.last)
        #expect(lastRequest.header("Range") == "bytes=\(resume.byteCount)-")
        #expect(lastRequest.header("If-Range") == "\"range-200000\"")
    }

    @Test(arguments: TransportKind.allCases) func aServerThatIgnoresTheRangeRestartsCleanly(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let target = directory.file("restarted.bin")
        let first = await live.session.download(live.server.url("/range/100000?reset-at=40000"), to: target).response
        var resume = try #require(first.resumeData)
        // The same resource from a URL whose server sends 200 and the whole body whatever the Range says.
        resume.request.url = live.server.url("/range/100000?ignore-range=1")
        let second = await live.session.download(resuming: resume, to: target).response
        #expect(second.statusCode == 200)
        #expect(try Data(contentsOf: try second.result.get()) == TestServer.patternBytes(count: 100_000))
    }

    @Test(
        arguments: TransportKind.allCases,
        [
            ("attachment; filename=\"../../escape.txt\"", "escape.txt"),
            ("attachment; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd", "passwd"),
            ("attachment; filename*=UTF-8''%2E%2E%5C%2E%2E%5Cboot.ini", "boot.ini"),
            ("attachment; filename=\"/etc/passwd\"", "passwd"),
            ("attachment; filename=\"..\\..\\windows\\evil.exe\"", "evil.exe"),
            ("attachment; filename=\"%2e%2e%2fsecret\"", "%2e%2e%2fsecret"),
            ("attachment; filename=\".hidden\"", "hidden"),
            ("attachment; filename=\"..\"", "download"),
            ("attachment; filename=\".\"", "download"),
            ("attachment; filename=\"\"", "download"),
            ("attachment; filename*=UTF-8''%00", "download"),
            ("attachment; filename=\"\(String(repeating: "a", count: 300))\"", String(repeating: "a", count: 255)),
            ("attachment; filename=\"report.pdf\"", "report.pdf"),
        ])
    func aSuggestedFileNameNeverLeavesTheDirectory(
        transport: TransportKind, disposition: (String, String)
    ) async throws {
        let (value, expected) = disposition
        let live = try LiveServer(transport: transport)
        live.server.setRoute("/named") { _ in
            TestResponse(status: 200, headers: [("Content-Disposition", value)], body: .data(Data("hi".utf8)))
        }
        let directory = try TemporaryDirectory()
        let inner = directory.file("inner")
        let file = try await live.session.download("named", into: inner).value
        #expect(file.lastPathComponent == expected)
        #expect(file.deletingLastPathComponent().standardizedFileURL.path == inner.standardizedFileURL.path)
        #expect(directory.contents == ["inner"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: inner.path) == [expected])
    }

    @Test(arguments: TransportKind.allCases) func aDownloadedJSONFileCanBeDecoded(transport: TransportKind) async throws
    {
        struct Profile: Decodable, Equatable {
            var id: Int
            var name: String
        }
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let download = live.session.download("json/user", to: directory.file("user.json"))
        let profile = try await download.serializingDecodable(Profile.self)
        #expect(profile == Profile(id: 42, name: "Ada Lovelace"))
        #expect(try await download.serializingJSON()["id"] == 42)
    }
}
