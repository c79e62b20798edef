import Ferry
import FerryTesting
import Foundation
import Testing
import FerryLocking

/// Records every event as a line, per request.
final class RecordingMonitor: EventMonitor {
    private let lines = Locked<[(RequestID, String)]>([])

    func events(of id: RequestID? = nil) -> [String] {
        lines.withLock { $0.filter { id == nil || $0.0 == id }.map(\.1) }
    }

    var ids: [RequestID] { lines.withLock { Array(Set($0.map(\.0))) } }

    private func record(_ id: RequestID, _ line: String) {
        lines.withLock { $0.append((id, line)) }
    }

    func requestCreated(_ request: Request, id: RequestID) async { record(id, "created \(request.url.path)") }
    func cacheDecided(_ status: CacheStatus, for request: Request, id: RequestID) async {
        record(id, "cache \(status) \(request.url.path)")
    }
    func requestAdapted(_ request: Request, attempt: Int, id: RequestID) async { record(id, "adapted \(attempt)") }
    func attemptStarted(_ request: Request, attempt: Int, id: RequestID) async { record(id, "attempt \(attempt)") }
    func responseHeadReceived(_ response: HTTPResponse, attempt: Int, id: RequestID) async {
        record(id, "head \(response.statusCode)")
    }
    func redirectFollowed(_ response: HTTPResponse, to next: Request, id: RequestID) async {
        record(id, "redirect \(next.url.path)")
    }
    func retryScheduled(after failure: FailedAttempt, delay: Duration, id: RequestID) async {
        record(id, "retry \(failure.error.reason) after \(delay)")
    }
    func requestCompleted(_ completion: RequestCompletion, id: RequestID) async {
        record(id, "completed \(completion.response?.statusCode ?? 0) retries \(completion.metrics.retryCount)")
    }
    func requestCancelled(_ completion: RequestCompletion, id: RequestID) async { record(id, "cancelled") }
}

/// A monitor that never returns from its first event.
struct StuckMonitor: EventMonitor {
    let entered: Counter

    func requestCreated(_ request: Request, id: RequestID) async {
        entered.increment()
        try? await waitForever()
    }
}

@Suite("Event monitors", .timeLimit(.minutes(1)))
struct EventMonitorTests {
    @Test func aRetriedAndRedirectedRequestTellsItsWholeStory() async throws {
        let monitor = RecordingMonitor()
        let calls = Counter()
        let session = stubSession(configure: {
            $0.interceptors = [RetryPolicy(random: { 0 })]
            $0.eventMonitors = [monitor]
        }) { request in
            calls.increment()
            if calls.count == 1 { return .status(503) }
            return request.url.path == "/start"
                ? StubResponse(statusCode: 302, headers: ["Location": "/end"]) : .status(200)
        }
        #expect(await session.get("start").response.statusCode == 200)
        try await waitUntil { monitor.events().last?.hasPrefix("completed") == true }
        #expect(
            monitor.events() == [
                "created /start", "adapted 1", "attempt 1", "head 503",
                "retry unacceptable status code 503 after 0.0 seconds", "adapted 2", "attempt 2", "head 302",
                "redirect /end", "head 200", "completed 200 retries 1",
            ])
    }

    @Test func withoutInterceptorsNothingIsAdapted() async throws {
        let monitor = RecordingMonitor()
        let session = stubSession(configure: { $0.eventMonitors = [monitor] }) { _ in .status(204) }
        _ = try await session.get("x").value
        try await waitUntil { monitor.events().count == 4 }
        #expect(monitor.events() == ["created /x", "attempt 1", "head 204", "completed 204 retries 0"])
    }

    @Test func aSlowMonitorNeverSlowsTheTransfer() async throws {
        let stuck = StuckMonitor(entered: Counter())
        let monitor = RecordingMonitor()
        let session = stubSession(configure: { $0.eventMonitors = [stuck, monitor] }) { _ in .status(204) }
        for index in 0..<50 {
            _ = try await session.get("item/\(index)").value
        }
        try await waitUntil { monitor.events().count { $0.hasPrefix("completed") } == 50 }
        #expect(stuck.entered.count == 1, "the stuck monitor still holds its first event")
        #expect(monitor.ids.count == 50, "one identity per request")
    }

    @Test func aCancelledRequestIsReportedAsCancelled() async throws {
        let monitor = RecordingMonitor()
        let server = StallingServer { $0.eventMonitors = [monitor] }
        let task = server.session.get("stall")
        async let response = task.response
        await server.waitForArrivals()
        task.cancel()
        #expect(await response.error?.reason == .cancelled)
        try await waitUntil { monitor.events().last == "cancelled" }
        #expect(monitor.events() == ["created /stall", "attempt 1", "cancelled"])
    }

    @Test func aTaskCancelledBeforeItStartedIsReportedToo() async throws {
        let monitor = RecordingMonitor()
        let session = stubSession(configure: { $0.eventMonitors = [monitor] }) { _ in .status(204) }
        session.get("never").cancel()
        try await waitUntil { monitor.events().count == 2 }
        #expect(monitor.events() == ["created /never", "cancelled"])
    }

    @Test func streamsAndDownloadsAreMonitoredToo() async throws {
        let monitor = RecordingMonitor()
        let session = stubSession(configure: { $0.eventMonitors = [monitor] }) { _ in .text("hello") }
        let stream = session.stream("s")
        for try await _ in stream.bytes {}
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await session.download("d.txt", into: directory).value
        try await waitUntil { monitor.events().count { $0.hasPrefix("completed 200") } == 2 }
        #expect(monitor.events().count { $0.hasPrefix("created") } == 2)
    }
}
