import Ferry
import FerryTestServer
import Foundation
import Testing

/// The loop people write first: iterate a task's progress, then await it. Iterating starts the transfer when
/// nobody did, so the loop ends and the later `await` joins the same transfer, for every task type.
@Suite("The progress loop as people write it")
struct ProgressLoopTests {
    @Test(arguments: TransportKind.allCases) func aDownloadsLoopThenItsValue(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let d = live.session.download("range/300000", to: directory.file("range.bin"))
        var snapshots: [TransferProgress] = []
        for await p in d.downloadProgress { snapshots.append(p) }
        let file = try await d.value
        #expect(try Data(contentsOf: file) == TestServer.patternBytes(count: 300_000))
        #expect(snapshots.last?.isFinished == true)
        #expect(snapshots.last?.completedBytes == 300_000)
        #expect(snapshots.last?.totalBytes == 300_000)
        let response = await d.response
        #expect(response.metrics.retryCount == 0)
        #expect(response.metrics.urls.count == 1, "one transfer: the loop's start and the await are the same")
    }

    @Test(arguments: TransportKind.allCases) func aDataTasksLoopThenItsValue(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let task = live.session.get("bytes/250000")
        var last: TransferProgress?
        for await p in task.downloadProgress { last = p }
        let data = try await task.value
        #expect(data == TestServer.patternBytes(count: 250_000))
        #expect(last?.isFinished == true)
        #expect(last?.completedBytes == 250_000)
        #expect(await live.session.activeRequestCount == 0)
    }

    @Test(arguments: TransportKind.allCases) func aStreamsLoopThenItsValue(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let stream = live.session.stream("bytes/200000")
        var last: TransferProgress?
        for await p in stream.downloadProgress { last = p }
        try await stream.value
        #expect(last?.isFinished == true)
        #expect(last?.completedBytes == 200_000)
        let response = await stream.response
        #expect(response.statusCode == 200)
        #expect(response.metrics.bytesReceived == 200_000)
        // Nobody consumed the body: it was read and dropped, and a late consumer is told so, never given nothing.
        let late = await #expect(throws: FerryError.self) {
            for try await _ in stream.bytes {}
        }
        #expect(late?.reason.isInvalidRequest == true)
    }

    @Test(arguments: TransportKind.allCases) func anUploadsLoopThenItsValue(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let body = Data(repeating: 7, count: 300_000)
        let upload = live.session.post("post", body: .data(body))
        var last: TransferProgress?
        for await p in upload.uploadProgress { last = p }
        let echoed = try await upload.serializingJSON()
        #expect(last?.isFinished == true)
        #expect(last?.completedBytes == 300_000)
        #expect(echoed.isObject)
    }

    @Test(arguments: TransportKind.allCases) func aTaskNobodyAwaitsStillRunsToItsEnd(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let destination = directory.file("never-awaited.bin")
        var last: TransferProgress?
        for await p in live.session.download("bytes/120000", to: destination).downloadProgress { last = p }
        #expect(last?.isFinished == true)
        #expect(last?.completedBytes == 120_000)
        // The final snapshot comes after the file is placed.
        #expect(try Data(contentsOf: destination) == TestServer.patternBytes(count: 120_000))
        #expect(await live.session.activeRequestCount == 0)

        var dataLast: TransferProgress?
        for await p in live.session.get("bytes/5000").downloadProgress { dataLast = p }
        #expect(dataLast?.completedBytes == 5000)
        #expect(await live.session.activeRequestCount == 0)
    }

    @Test(arguments: TransportKind.allCases) func anUnknownTotalReportsBytes(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let task = live.session.get("stream-bytes/100000", query: [.init(name: "chunk", value: "10000")])
        var snapshots: [TransferProgress] = []
        for await p in task.downloadProgress { snapshots.append(p) }
        _ = try await task.value
        #expect(snapshots.allSatisfy { $0.fractionCompleted == nil && $0.totalBytes == nil })
        #expect(snapshots.last?.completedBytes == 100_000)
    }

    @Test(arguments: TransportKind.allCases) func aFailureEndsTheLoopAndTheValueThrowsIt(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let task = live.session.get("status/503")
        var last: TransferProgress?
        for await p in task.downloadProgress { last = p }
        #expect(last?.isFinished == true)
        let error = await #expect(throws: FerryError.self) { try await task.value }
        #expect(error?.reason == .unacceptableStatus(503))
    }
}

extension FerryError.Reason {
    fileprivate var isInvalidRequest: Bool {
        if case .invalidRequest = self { true } else { false }
    }
}

extension JSON {
    fileprivate var isObject: Bool {
        if case .object = self { true } else { false }
    }
}
