import Ferry
import FerryTestServer
import Foundation
import Testing
import FerryLocking

/// One vocabulary: `head`, `validate…`, `value` mean the same on every task type, and the validation that decides
/// is applied once, where the pipeline decides, so retriers see a task's own rule.
@Suite("One vocabulary, validation decided once")
struct TaskVocabularyTests {
    /// Records what the retriers were asked about, and never retries.
    private final class RecordingRetrier: RequestInterceptor, Sendable {
        let asked = Locked<[FerryError.Reason]>([])

        func retryDecision(for failure: FailedAttempt) async throws -> RetryDecision {
            asked.withLock { $0.append(failure.error.reason) }
            return .doNotRetry
        }
    }

    @Test(arguments: TransportKind.allCases) func aRetrierSeesTheTasksOwnStatusRule(
        transport: TransportKind
    ) async throws {
        let retrier = RecordingRetrier()
        let live = try LiveServer(transport: transport) {
            $0.validation = .none
            $0.interceptors = [retrier]
        }
        // The session accepts every status; the task accepts only 2xx: the retrier is asked about the 404.
        let error = await #expect(throws: FerryError.self) {
            try await live.session.get("status/404").validate(statusCode: 200..<300).value
        }
        #expect(error?.reason == .unacceptableStatus(404))
        #expect(retrier.asked.withLock { $0 } == [.unacceptableStatus(404)])
    }

    @Test(arguments: TransportKind.allCases) func aRetrierIsNotAskedAboutAStatusTheTaskAccepts(
        transport: TransportKind
    ) async throws {
        let retrier = RecordingRetrier()
        let live = try LiveServer(transport: transport) { $0.interceptors = [retrier] }
        // The session wants 2xx; the task accepts the 404: nothing failed, nothing to retry.
        let response = await live.session.get("status/404").validate(statusCode: 200..<500).response
        #expect(response.error == nil)
        #expect(response.statusCode == 404)
        #expect(retrier.asked.withLock { $0 }.isEmpty)
        // A content type the task rejects is the retriers' to judge too, as soon as the head says it.
        let rejected = await live.session.get("json").validate(contentType: ["text/plain"]).response
        #expect(
            rejected.error?.reason == .unacceptableContentType(received: "application/json", acceptable: ["text/plain"])
        )
        #expect(retrier.asked.withLock { $0 }.count == 1)
    }

    @Test(arguments: TransportKind.allCases) func aDataTasksHeadArrivesBeforeItsBody(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let task = live.session.get(
            "drip", query: [.init(name: "numbytes", value: "40"), .init(name: "duration", value: "20")])
        let head = try await task.head
        #expect(head.statusCode == 200)
        // The body is still on its way (twenty seconds of it): the transfer runs, unread.
        #expect(await live.session.activeRequestCount == 1)
        task.cancel()
        let error = await #expect(throws: FerryError.self) { try await task.value }
        #expect(error?.reason == .cancelled)
    }

    @Test(arguments: TransportKind.allCases) func theHeadFirstThenTheValueReadsTheBody(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let task = live.session.get("bytes/70000")
        #expect(try await task.head.statusCode == 200)
        #expect(try await task.value == TestServer.patternBytes(count: 70_000))
        let directory = try TemporaryDirectory()
        let download = live.session.download("bytes/9000", to: directory.file("nine.bin"))
        #expect(try await download.head.expectedContentLength == 9000)
        #expect(try Data(contentsOf: try await download.value) == TestServer.patternBytes(count: 9000))
    }

    @Test(arguments: TransportKind.allCases) func aHeadOnlyTaskReleasedFreesItsConnection(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        do {
            let task = live.session.get(
                "drip", query: [.init(name: "numbytes", value: "40"), .init(name: "duration", value: "20")])
            _ = try await task.head
        }
        // Nobody can read the body any more: the transfer ends without waiting out the drip.
        let deadline = ContinuousClock.now + Duration.seconds(10).scaled
        while await live.session.activeRequestCount > 0 {
            #expect(ContinuousClock.now < deadline, "the released transfer ended")
            if ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test(arguments: TransportKind.allCases) func aHeadRejectedByValidationThrowsOnEveryTaskType(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        let data = await #expect(throws: FerryError.self) { try await live.session.get("status/418").head }
        let download = await #expect(throws: FerryError.self) {
            try await live.session.download("status/418", to: directory.file("x")).head
        }
        let stream = await #expect(throws: FerryError.self) { try await live.session.stream("status/418").head }
        for error in [data, download, stream] { #expect(error?.reason == .unacceptableStatus(418)) }
        // …and unvalidated(), the same word on each, accepts it.
        #expect(try await live.session.get("status/418").unvalidated().head.statusCode == 418)
        #expect(try await live.session.stream("status/418").unvalidated().head.statusCode == 418)
        let accepted = live.session.download("status/418", to: directory.file("teapot")).unvalidated()
        #expect(try await accepted.head.statusCode == 418)
        #expect(FileManager.default.fileExists(atPath: try await accepted.value.path))
    }

    @Test(arguments: TransportKind.allCases) func aDownloadValidatesLikeEveryTask(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let directory = try TemporaryDirectory()
        // Rejected: the error body goes to memory, nothing is placed.
        let rejected = await live.session.download("status/404", to: directory.file("missing")).response
        #expect(rejected.error?.reason == .unacceptableStatus(404))
        #expect(rejected.fileURL == nil)
        #expect(directory.contents.isEmpty)
        // A custom validator runs after the body, with the bytes on disk counted, not in memory.
        let checked = await live.session.download("bytes/10", to: directory.file("ten")).validate { _, response, body in
            #expect(body.isEmpty)
            throw TeapotError()
        }.response
        #expect(checked.error?.reason == .validationFailed)
        #expect(directory.contents.isEmpty)
        // A download's response is a response whose value is the file.
        let placed: DownloadResponse = await live.session.download("bytes/10", to: directory.file("ok")).response
        #expect(placed.value == directory.file("ok"))
        #expect(placed.result.isSuccess)
    }

    @Test(arguments: TransportKind.allCases) func aDerivedTaskJudgesTheSameHeadByItsOwnRule(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let task = live.session.get("status/404")
        let strict = await #expect(throws: FerryError.self) { try await task.head }
        #expect(strict?.reason == .unacceptableStatus(404))
        // Same transfer, another rule: the head and the value are judged again, nothing is sent twice.
        #expect(try await task.unvalidated().head.statusCode == 404)
        #expect(try await task.unvalidated().value.isEmpty == false)
        #expect(live.server.requestCount == 1)
    }

    @Test(arguments: TransportKind.allCases) func aStreamsCustomValidatorRunsAtItsHead(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let stream = live.session.stream("bytes/1000").validate { _, response, body in
            #expect(body.isEmpty)
            if response.headers["Content-Type"] == "application/octet-stream" { throw TeapotError() }
        }
        let error = await #expect(throws: FerryError.self) {
            for try await _ in stream.bytes {}
        }
        #expect(error?.reason == .validationFailed)
        #expect(await stream.response.error?.reason == .validationFailed)
    }

    @Test func responsesCanBeBuiltInTests() throws {
        let head = HTTPResponse(statusCode: 200, headers: [:], url: URL(fileURLWithPath: "/"))
        let file = URL(fileURLWithPath: "/tmp/file")
        let download = DownloadResponse(request: nil, response: head, result: .success(file))
        #expect(download.value == file)
        #expect(download.fileURL == file)
        #expect(download.statusCode == 200)
        let stream = StreamResponse(request: nil, response: head, result: .failure(FerryError(.cancelled)))
        #expect(stream.error?.reason == .cancelled)
        #expect(stream.statusCode == 200)
    }
}

private struct TeapotError: Error {}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { true } else { false }
    }
}
