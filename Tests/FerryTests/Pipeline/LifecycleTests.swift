import Ferry
import FerryTesting
import Foundation
import Testing

@Suite("Transfers, cancellation and timeouts (in memory)")
struct LifecycleTests {
    @Test func theTransferRunsOnceForEverySerializer() async throws {
        let calls = Counter()
        let session = stubSession { _ in
            calls.increment()
            return .json(#"{"id":1,"name":"A"}"#)
        }
        let task = session.get("u")
        async let json = task.serializingJSON()
        async let user = task.serializingDecodable(User.self)
        async let text = task.serializingString()
        _ = try await (json, user, text)
        let first = await task.response
        let second = await task.response
        // One transfer: the same request timings; each read serializes the outcome again.
        #expect(first.timeline.requestStart == second.timeline.requestStart)
        #expect(first.timeline.requestCompleted == second.timeline.requestCompleted)
        #expect(first.timeline.serializationCompleted != nil && second.timeline.serializationCompleted != nil)
        #expect(calls.count == 1)
    }

    @Test func cancelEndsAStalledRequest() async throws {
        let server = StallingServer()
        let task = server.session.get("stall")
        task.resume()
        await server.waitForArrivals()
        task.cancel()
        let error = await #expect(throws: FerryError.self) { try await task.value }
        #expect(error?.reason == .cancelled)
        #expect(error?.isCancellation == true)
    }

    @Test func aTaskCancelledBeforeItStartedSendsNothing() async throws {
        let calls = Counter()
        let session = stubSession { _ in
            calls.increment()
            return .text("sent")
        }
        let task = session.get("never")
        task.cancel()
        #expect(await task.result.failureReason == .cancelled)
        #expect(await session.activeRequestCount == 0)
        #expect(calls.count == 0)
    }

    @Test func nothingIsSentUntilTheTaskIsAwaited() async throws {
        let calls = Counter()
        let session = stubSession { _ in
            calls.increment()
            return .text("sent")
        }
        let task = session.get("lazy")
        #expect(calls.count == 0)
        #expect(try await task.serializingString() == "sent")
        #expect(try await task.serializingString() == "sent")
        #expect(calls.count == 1)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheTransfer() async throws {
        let server = StallingServer()
        let session = server.session
        let dataTask = session.get("stall")
        let waiter = Task { try await dataTask.serializingData() }
        await server.waitForArrivals()
        waiter.cancel()
        let result = await waiter.result
        #expect(throws: FerryError.self) { try result.get() }
        #expect(await dataTask.result.failureReason == .cancelled)
        #expect(await session.activeRequestCount <= 1)
    }

    @Test func bodyLargerThanTheLimitFails() async throws {
        let session = stubSession(configure: { $0.maximumBodySize = 1000 }) { _ in
            StubResponse(chunks: [Data(count: 600), Data(count: 600)])
        }
        let error = await #expect(throws: FerryError.self) { try await session.get("big").value }
        #expect(error?.reason == .bodyTooLarge(limit: 1000))
        #expect(error?.statusCode == 200)
    }

    @Test func declaredLengthOverTheLimitFailsBeforeTheBody() async throws {
        var request = Request(url: URL(string: "http://stub.test/big")!)
        request.maximumBodySize = 10
        let session = stubSession { _ in StubResponse(headers: ["Content-Length": "5000"], body: Data(count: 5000)) }
        let error = await #expect(throws: FerryError.self) { try await session.request(request).value }
        #expect(error?.reason == .bodyTooLarge(limit: 10))
    }

    @Test func shutdownWaitsThenRefusesNewRequests() async throws {
        let entered = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        let session = stubSession { _ in
            entered.continuation.yield()
            for await _ in release.stream { break }
            return .text("ok")
        }
        let running = session.get("a")
        let unstarted = session.get("c")
        running.resume()
        var started = entered.stream.makeAsyncIterator()
        await started.next()
        async let shutDown: Void = session.shutdown()
        release.continuation.yield()
        await shutDown
        #expect(try await running.serializingString() == "ok")
        #expect(await unstarted.result.failureReason == .sessionShutDown)
        let error = await #expect(throws: FerryError.self) { try await session.get("b").value }
        #expect(error?.reason == .sessionShutDown)
    }

    @Test func shutdownCanCancelInFlightRequests() async throws {
        let server = StallingServer()
        let session = server.session
        let task = session.get("stall")
        task.resume()
        await server.waitForArrivals()
        await session.shutdown(cancellingInFlightRequests: true)
        #expect(await task.result.failureReason == .cancelled)
        #expect(await session.activeRequestCount == 0)
    }

    @Test func manyConcurrentRequestsThroughOneSession() async throws {
        let session = stubSession { request in .text(request.url.path) }
        let paths = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<500 {
                group.addTask { try await session.get("p\(index)").serializingString() }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(paths.count == 500)
    }

    @Test func handlerErrorsAreMapped() async throws {
        let session = stubSession { _ in throw URLError(.cannotConnectToHost) }
        let error = await #expect(throws: FerryError.self) { try await session.get("x").value }
        #expect(error?.reason == .transport(.cannotConnect))
        #expect(error?.underlyingError is URLError)
    }
}

extension Result where Failure == FerryError {
    var failureReason: FerryError.Reason? {
        if case .failure(let error) = self { return error.reason }
        return nil
    }
}
