@testable import Ferry
import FerryTesting
import Foundation
import Testing

/// A value the caller sets and the transport reads: task-local values reach the transport because the transfer
/// runs in the awaiting task.
enum TraceContext {
    @TaskLocal static var traceID: String?
}

/// A transport that answers with what it saw of the task it runs in.
private struct ObservingTransport: Transport {
    func send(_ request: Request, context: TransportContext) async throws -> TransportResponse {
        let seen = "trace=\(TraceContext.traceID ?? "none") priority=\(Task.currentPriority.rawValue)"
        return TransportResponse(
            head: HTTPResponse(statusCode: 200, url: request.url), body: .chunks([Data(seen.utf8)]))
    }
}

@Suite("Structured transfers")
struct StructuredConcurrencyTests {
    @Test func taskLocalValuesReachTheTransport() async throws {
        let session = Session(transport: ObservingTransport())
        let seen = try await TraceContext.$traceID.withValue("abc-123") {
            try await session.get("http://stub.test/").serializingString()
        }
        #expect(seen.hasPrefix("trace=abc-123 "))
    }

    @Test func theCallersPriorityReachesTheTransport() async throws {
        let session = Session(transport: ObservingTransport())
        // Read through a stream, not `Task.value`, which would raise the low-priority task to the test's priority.
        let (results, continuation) = AsyncStream<String>.makeStream()
        Task(priority: .background) {
            continuation.yield((try? await session.get("http://stub.test/").serializingString()) ?? "failed")
            continuation.finish()
        }
        var iterator = results.makeAsyncIterator()
        let seen = await iterator.next()
        #expect(seen?.hasSuffix("priority=\(TaskPriority.background.rawValue)") == true)
    }

    @Test func aSecondAwaiterGetsTheSameOutcomeFromOneTransfer() async throws {
        let calls = Counter()
        let session = stubSession { _ in
            calls.increment()
            return .text("once")
        }
        let task = session.get("shared")
        async let first = task.serializingString()
        async let second = task.response
        #expect(try await first == "once")
        #expect(await second.value == Data("once".utf8))
        #expect(calls.count == 1)
    }

    @Test func aProgressStreamMadeBeforeTheStartMissesNothing() async throws {
        let chunks = (0..<4).map { Data(repeating: UInt8($0), count: 1000) }
        let session = stubSession { _ in StubResponse(chunks: chunks) }
        let task = session.get("body")
        let progress = task.downloadProgress
        #expect(try await task.serializingData().count == 4000)
        var last: TransferProgress?
        for await snapshot in progress { last = snapshot }
        #expect(last?.completedBytes == 4000)
        #expect(last?.isFinished == true)
    }

    @Test func cancellingTheCallerCancelsTheTransferInItsTask() async throws {
        let server = StallingServer()
        let session = server.session
        let caller = Task { await session.get("stall").result }
        await server.waitForArrivals()
        #expect(await session.activeRequestCount == 1)
        caller.cancel()
        #expect(await caller.value.failureReason == .cancelled)
        #expect(await session.activeRequestCount == 0)
    }
}

/// Something a transport's stop handler keeps alive, to see when it is released.
private final class CallState: Sendable {}

/// Weak references to every call state a transport made.
private final class CallLog: Sendable {
    struct Weak: Sendable {
        weak var value: CallState?
    }

    let calls = Locked<[Weak]>([])
}

/// A transport whose stop handler holds the call's state, which holds the context, as real transports do.
private struct CyclingTransport: Transport {
    let log: CallLog

    func send(_ request: Request, context: TransportContext) async throws -> TransportResponse {
        let call = CallState()
        log.calls.withLock { $0.append(CallLog.Weak(value: call)) }
        context.onStop { _ in withExtendedLifetime((call, context)) {} }
        return TransportResponse(
            head: HTTPResponse(statusCode: 200, url: request.url), body: .chunks([Data("ok".utf8)]))
    }
}

@Suite("Transfer lifetime")
struct TransferLifetimeTests {
    @Test func aTransportsStopHandlerIsReleasedWithTheTransfer() async throws {
        let log = CallLog()
        let session = Session(transport: CyclingTransport(log: log))
        for _ in 0..<10 { _ = try await session.get("http://stub.test/").serializingData() }
        #expect(log.calls.withLock { $0.count } == 10)
        #expect(log.calls.withLock { $0.allSatisfy { $0.value == nil } }, "no call state outlives its transfer")
    }
}
