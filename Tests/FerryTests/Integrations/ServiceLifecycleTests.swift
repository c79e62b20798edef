#if ServiceLifecycle
@testable import Ferry
import FerryTesting
import Foundation
import Logging
import ServiceLifecycle
import Testing

@Suite("Session as a Service (ServiceLifecycle trait)")
struct ServiceLifecycleTests {
    private func group(running session: Session) -> ServiceGroup {
        ServiceGroup(
            configuration: .init(
                services: [.init(service: session)], gracefulShutdownSignals: [], cancellationSignals: [],
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })))
    }

    @Test func gracefulShutdownLetsARunningRequestFinish() async throws {
        let release = AsyncStream<Void>.makeStream()
        let arrived = AsyncStream<Void>.makeStream()
        let session = Session(
            transport: InMemoryTransport { _ in
                arrived.continuation.yield()
                for await _ in release.stream { break }
                return .text("done")
            })
        let group = group(running: session)
        async let running: Void = group.run()
        let task = session.get("http://stub.test/slow")
        async let value = task.serializingString()
        for await _ in arrived.stream { break }
        await group.triggerGracefulShutdown()
        release.continuation.yield()
        #expect(try await value == "done")
        try await running
        #expect(await session.get("http://stub.test/new").result.failure?.reason == .sessionShutDown)
    }

    @Test func aRequestStillRunningWhenTheGracePeriodEndsIsCancelled() async throws {
        let clock = ManualTimeoutClock()
        var configuration = Session.Configuration(transport: InMemoryTransport { _ in try await waitForever() })
        configuration.timeoutClock = clock
        configuration.shutdownGracePeriod = .seconds(5)
        let session = Session(configuration: configuration)
        let group = group(running: session)
        async let running: Void = group.run()
        let task = session.get("http://stub.test/hang")
        task.resume()
        try await waitUntil { session.registry.count == 1 }
        await group.triggerGracefulShutdown()
        _ = await clock.waitForSleepers(count: 2)  // the request's idle timeout and the grace period
        clock.advance(by: .seconds(4))
        #expect(session.registry.count == 1)
        clock.advance(by: .seconds(1))
        let result = await task.result
        #expect(result.failure?.reason == .cancelled)
        try await running
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
#endif
