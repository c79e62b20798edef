@testable import Ferry
import FerryTesting
import Foundation
import Testing

/// Ferry's timeouts through a whole session, on a clock the test advances: exact, typed, no wall-clock waits.
@Suite("Session timeouts on an injected clock", .timeLimit(.minutes(1)))
struct SessionTimeoutTests {
    @Test func theIdleTimeoutFiresExactlyWhenItIsDueAndIsTyped() async throws {
        let clock = ManualTimeoutClock()
        let server = StallingServer {
            $0.timeoutClock = clock
            $0.idleTimeout = .milliseconds(150)
        }
        let session = server.session
        let task = session.get("stall")
        async let response = task.response
        await server.waitForArrivals()
        #expect(await clock.waitForSleepers(count: 1) == [clock.now + .milliseconds(150)])
        clock.advance(by: .milliseconds(149))
        #expect(await session.activeRequestCount == 1, "not due yet: the request still runs")
        clock.advance(by: .milliseconds(1))
        let error = try #require(await response.error)
        #expect(error.reason == .timedOut(.idle))
        #expect(error.underlyingError == nil, "reported as a timeout directly, not as a mapped cancellation")
        #expect(await session.activeRequestCount == 0)
    }

    @Test func theIdleTimeCountsFromTheHandOverToTheTransport() async throws {
        // Given an adapter that holds the request for five idle timeouts before the transport gets it (as a busy
        // process's cooperative threads do to every step)
        let clock = ManualTimeoutClock()
        let (entered, enter) = AsyncStream<Void>.makeStream()
        let (released, release) = AsyncStream<Void>.makeStream()
        let session = stubSession {
            $0.timeoutClock = clock
            $0.idleTimeout = .seconds(1)
            $0.interceptors = [
                Interceptor.adapter { request in
                    enter.yield()
                    for await _ in released { break }
                    return request
                }
            ]
        } _: { _ in
            .text("ok")
        }
        async let response = session.get("held").response
        var entries = entered.makeAsyncIterator()
        _ = await entries.next()
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(5))
        // The timer woke, found the request not yet handed over (not idle) and went back to sleep for it
        let later = clock.now
        try await waitUntil { clock.sleeperDeadlines.contains { $0 > later } }
        release.yield()
        // Then the request is answered, not timed out
        let answered = await response
        #expect(answered.error == nil)
        #expect(answered.statusCode == 200)
    }

    @Test func theTotalTimeoutWinsOverALongerIdleTimeout() async throws {
        let clock = ManualTimeoutClock()
        let server = StallingServer {
            $0.timeoutClock = clock
            $0.idleTimeout = .seconds(60)
        }
        var request = Request(url: URL(string: "http://stub.test/slow")!)
        request.totalTimeout = .milliseconds(200)
        async let response = server.session.request(request).response
        await server.waitForArrivals()
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(200))
        #expect(await response.error?.reason == .timedOut(.total))
    }

    @Test func oneTimerServesManyRequests() async throws {
        let clock = ManualTimeoutClock()
        let server = StallingServer {
            $0.timeoutClock = clock
            $0.idleTimeout = .seconds(1)
        }
        let session = server.session
        let tasks = (0..<20).map { session.get("stall/\($0)") }
        for task in tasks { task.resume() }
        await server.waitForArrivals(tasks.count)
        #expect(session.pipeline.timeouts.count == 20)
        #expect(session.pipeline.timeouts.timersStarted == 1, "one sleeping timer for the session, not one per request")
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        for task in tasks { #expect(await task.result.failureReason == .timedOut(.idle)) }
        #expect(session.pipeline.timeouts.count == 0)
    }

    @Test func finishedRequestsLeaveNothingInTheTimer() async throws {
        let session = stubSession { _ in .text("ok") }
        for index in 0..<100 { _ = try await session.get("fast/\(index)").serializingString() }
        #expect(session.pipeline.timeouts.count == 0)
        #expect(session.pipeline.timeouts.timersStarted == 1)
    }
}

@Suite("Stream idle time on an injected clock", .timeLimit(.minutes(1)))
struct StreamIdleTimeoutTests {
    /// URLSession cannot pause: it buffers the whole body while the consumer is busy. Once the server sent it all, a
    /// slow consumer is not an idle server.
    @Test func aBufferedBodyIsNotIdleWhileItsConsumerIsSlow() async throws {
        let clock = ManualTimeoutClock()
        let live = try LiveServer(transport: .urlSession) {
            $0.timeoutClock = clock
            $0.idleTimeout = .seconds(1)
        }
        let stream = live.session.stream("bytes/100000")
        _ = try await stream.head
        // The whole body buffered, and the call complete: its completion, which comes after the last bytes, is what
        // pauses the idle time (advanced before it, under load, the clock rightly ended the request as idle).
        try await waitUntil {
            stream.transfer.unreadByteCount == 100_000 && stream.transfer.controls.activity.lastActivity == nil
        }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(5))  // the consumer was busy for five idle timeouts
        // The timer woke, found the request paused (not idle) and went back to sleep for it: nothing fired.
        let later = clock.now
        try await waitUntil { clock.sleeperDeadlines.contains { $0 > later } }
        #expect(stream.transfer.unreadByteCount == 100_000, "not stopped")
        let body = try await stream.collect(upTo: 200_000)
        #expect(body.count == 100_000)
        #expect(await stream.response.error == nil)
    }
}
