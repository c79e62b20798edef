import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("Concurrency against the test server")
struct LiveConcurrencyTests {
    @Test(arguments: TransportKind.allCases) func fiveHundredConcurrentRequests(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let session = live.session
        let ids = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<500 {
                group.addTask {
                    try await session.get("get", query: [.init(name: "i", value: "\(index)")]).serializingJSON()[
                        "args"]?["i"]?
                        .stringValue
                }
            }
            return try await group.reduce(into: Set<String>()) { if let id = $1 { $0.insert(id) } }
        }
        #expect(ids.count == 500)
        #expect(live.server.requestCount >= 500)
    }

    @Test(arguments: TransportKind.allCases) func twoHundredRequestsCancelledAtRandomPointsAllEnd(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let session = live.session
        var generator = SystemRandomNumberGenerator()
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                let path = ["bytes/20000", "delay/0.05", "get", "stream-bytes/50000", "drip?numbytes=3&duration=0.2"][
                    index % 5]
                let delay = Int.random(in: 0...30, using: &generator)
                group.addTask {
                    let task = session.get(path)
                    task.resume()
                    if delay > 0 { try? await Task.sleep(for: .milliseconds(delay)) }
                    task.cancel()
                    let result = await task.result
                    switch result {
                    case .success: return true
                    case .failure(let error): return error.isCancellation
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.count == 200)
        #expect(outcomes.allSatisfy { $0 }, "every request either finished or was cancelled")
        // The session still works afterwards.
        #expect(try await session.get("get").serializingJSON()["url"] != nil)
    }

    @Test(arguments: TransportKind.allCases) func cancellingTheAwaitingTaskEndsAStalledRequest(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let session = live.session
        let waiter = Task { try await session.get("fault/stall-headers").serializingData() }
        try await waitUntil { live.server.requestCount == 1 }
        waiter.cancel()
        let result = await waiter.result
        // The cancellation ended it: a request it did not end would fail later, with the idle timeout's reason.
        let error = #expect(throws: FerryError.self) { try result.get() }
        #expect(error?.reason == .cancelled, "\(String(describing: error))")
    }
}
