@testable import Ferry
import FerryTestServer
import FerryTesting
import Foundation
import Testing

@Suite("Response byte streams")
struct StreamTaskTests {
    @Test(arguments: TransportKind.allCases) func serverSentEventsArriveWithTheirFields(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let stream = live.session.stream("sse", query: [.init(name: "count", value: "6")])
        #expect(try await stream.head.mimeType == "text/event-stream")
        var events: [ServerSentEvent] = []
        for try await event in stream.serverSentEvents { events.append(event) }
        #expect(events.count == 6)
        for (index, event) in events.enumerated() {
            #expect(event.id == "\(index + 1)")
            #expect(event.event == "tick")
            #expect(event.data == "event \(index)\nline 2")
            #expect(event.retry == .milliseconds(1500))
        }
        #expect(await stream.response.error == nil)
    }

    @Test(arguments: TransportKind.allCases) func newlineDelimitedJSONDecodes(transport: TransportKind) async throws {
        struct Line: Decodable, Sendable { var index: Int }
        let live = try LiveServer(transport: transport)
        let stream = live.session.stream("ndjson", query: [.init(name: "count", value: "4")])
        var indices: [Int] = []
        for try await line in stream.jsonLines(of: Line.self) { indices.append(line.index) }
        #expect(indices == [0, 1, 2, 3])
    }

    @Test(arguments: TransportKind.allCases) func chunksAreHandedOnAsTheyArriveNotBytewise(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let stream = live.session.stream("stream-bytes/300000")
        var total = Data()
        var chunks = 0
        for try await chunk in stream.bytes {
            total.append(chunk)
            chunks += 1
        }
        #expect(total == TestServer.patternBytes(count: 300_000))
        #expect(chunks < 300)
    }

    @Test(arguments: TransportKind.allCases) func validationHappensBeforeTheFirstChunk(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let stream = live.session.stream("status/503")
        let error = await #expect(throws: FerryError.self) {
            for try await _ in stream.bytes { Issue.record("no chunk may be handed on") }
        }
        #expect(error?.reason == .unacceptableStatus(503))
        #expect(error?.statusCode == 503)
    }

    @Test(arguments: TransportKind.allCases) func theResponseOfARejectedHeadCarriesTheValidationError(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let stream = live.session.stream("status/503")
        let response = await stream.response  // no iteration: the head is still validated
        #expect(response.error?.reason == .unacceptableStatus(503))
        #expect(response.response?.statusCode == 503)
        #expect(await live.session.activeRequestCount == 0)
    }

    @Test(arguments: TransportKind.allCases) func leavingTheLoopEarlyCancelsTheTransfer(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let stream = live.session.stream(
            "drip", query: [.init(name: "numbytes", value: "50"), .init(name: "duration", value: "10")])
        for try await _ in stream.bytes { break }
        let completion = await stream.response
        #expect(completion.error?.reason == .cancelled)
        // The transfer ended with the consumer's exit: nothing is left running.
        #expect(await live.session.activeRequestCount == 0)
    }

    @Test(arguments: TransportKind.allCases) func releasingAnUnreadStreamCancelsIt(
        transport: TransportKind
    ) async throws {
        let live = try LiveServer(transport: transport)
        let transfer: Transfer
        do {
            let stream = live.session.stream(
                "drip", query: [.init(name: "numbytes", value: "50"), .init(name: "duration", value: "10")])
            _ = try await stream.head
            transfer = stream.transfer
        }
        let outcome = await transfer.outcome(validation: .none)
        #expect(outcome.error?.reason == .cancelled)
        #expect(await live.session.activeRequestCount == 0)
    }

    @Test(arguments: TransportKind.allCases) func aBodyCanBeIteratedOnce(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let stream = live.session.stream("bytes/10")
        #expect(try await stream.collect(upTo: 100) == TestServer.patternBytes(count: 10))
        let error = await #expect(throws: FerryError.self) {
            for try await _ in stream.bytes {}
        }
        guard case .invalidRequest = error?.reason else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: TransportKind.allCases) func collectFailsClearlyPastItsLimit(transport: TransportKind) async throws
    {
        let live = try LiveServer(transport: transport)
        let stream = live.session.stream(
            "drip", query: [.init(name: "numbytes", value: "5000"), .init(name: "duration", value: "3")])
        let error = await #expect(throws: FerryError.self) { try await stream.collect(upTo: 1000) }
        #expect(error?.reason == .bodyTooLarge(limit: 1000))
        #expect(await stream.response.error?.reason == .cancelled)
    }

    @Test func aSlowConsumerPausesATransportThatCanPause() async throws {
        let chunk = Data(repeating: 7, count: 64 << 10)
        let body = CountingBody(chunks: Array(repeating: chunk, count: 64))  // 4 MiB
        let session = Session(transport: PulledTransport(body: body))
        let stream = session.stream("http://stub.test/big")
        _ = try await stream.head
        // Nobody reads yet: nothing is pulled from the transport.
        #expect(body.pulled == 0)
        var received = 0
        for try await piece in stream.bytes {
            received += piece.count
            // The transport is pulled exactly as fast as the consumer reads: never ahead of it.
            #expect(body.pulled == received / chunk.count)
        }
        #expect(received == 64 * chunk.count)
        #expect(body.pulled == 64)
    }

    @Test(arguments: TransportKind.allCases.filter { $0.pausesForSlowConsumers })
    func aLiveTransportThatCanPauseHoldsBackTheServer(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let stream = live.session.stream("bytes/8000000")
        _ = try await stream.head
        // Nothing is consumed until the consumer reads; then the whole body arrives intact.
        #expect(stream.transfer.controls.downloadProgress.latest.completedBytes == 0)
        let body = try await stream.collect(upTo: 10_000_000)
        #expect(body == TestServer.patternBytes(count: 8_000_000))
    }

    @Test(arguments: TransportKind.allCases) func streamsTakeAnyMethodAndBody(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let stream = live.session.stream("anything", method: .post, body: .json(["prompt": "hi"]))
        let echoed = try JSON(parsing: try await stream.collect(upTo: 1 << 20))
        #expect(echoed["method"] == "POST")
    }

    /// URLSession cannot pause: past the buffer, the excess goes to disk.
    @Test func aTransportThatCannotPauseSpillsToDiskAndCleansUp() async throws {
        let live = try LiveServer()
        let before = ferryTemporaryFiles("ferry-stream-")
        let stream = live.session.stream("bytes/2000000", options: StreamOptions(bufferSize: 64 << 10))
        _ = try await stream.head
        // Read nothing until URLSession has delivered everything: the excess must be on disk, not in memory.
        try await waitUntil { (stream.transfer.unreadByteCount ?? 0) >= 2_000_000 }
        #expect(!ferryTemporaryFiles("ferry-stream-").subtracting(before).isEmpty)
        let body = try await stream.collect(upTo: 4_000_000)
        #expect(body == TestServer.patternBytes(count: 2_000_000))
        #expect(ferryTemporaryFiles("ferry-stream-").subtracting(before).isEmpty)
    }

    @Test func theFailingPolicyEndsTheStreamWithAClearError() async throws {
        let live = try LiveServer()
        let stream = live.session.stream(
            "bytes/2000000", options: StreamOptions(bufferSize: 64 << 10, overflow: .fail))
        _ = try await stream.head
        // Read nothing until the buffer overflowed and the transfer was stopped.
        try await waitUntil { stream.transfer.unreadByteCount == nil }
        var received = 0
        let error = await #expect(throws: FerryError.self) {
            for try await chunk in stream.bytes { received += chunk.count }
        }
        #expect(error?.reason == .streamBufferOverflow(limit: 64 << 10))
        #expect(received > 0 && received <= 2 * (64 << 10))
        #expect(await stream.response.error?.reason == .streamBufferOverflow(limit: 64 << 10))
    }
}

/// A transport whose body is pulled chunk by chunk and counts the pulls.
private struct PulledTransport: Transport {
    let body: CountingBody

    func send(_ request: Request, context: TransportContext) async throws -> TransportResponse {
        TransportResponse(head: HTTPResponse(statusCode: 200, url: request.url), body: ResponseBody(body))
    }
}

private final class CountingBody: ResponseBodySource {
    private let state: Locked<(chunks: [Data], pulled: Int)>

    init(chunks: [Data]) {
        state = Locked((chunks, 0))
    }

    var pulled: Int { state.withLock { $0.pulled } }

    func next() async throws -> Data? {
        state.withLock { state in
            guard state.pulled < state.chunks.count else { return nil }
            defer { state.pulled += 1 }
            return state.chunks[state.pulled]
        }
    }

    func cancel() {}
}
