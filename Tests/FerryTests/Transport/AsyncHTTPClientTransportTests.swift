#if AsyncHTTPClient
import AsyncHTTPClient
@testable import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("AsyncHTTPClient transport")
struct AsyncHTTPClientTransportTests {
    struct Receipt: Decodable, Sendable {
        var bytes: Int
        var checksum: String
        var chunked: Bool
    }

    @Test func shutdownLetsInFlightRequestsFinishThenClosesTheClient() async throws {
        let server = try TestServer()
        defer { server.shutDownInBackground() }
        let session = Session(configuration: .init(baseURL: server.baseURL, transport: AsyncHTTPClientTransport()))
        let slow = session.get(
            "drip", query: [.init(name: "numbytes", value: "5"), .init(name: "duration", value: "0.5")])
        slow.resume()
        _ = await server.waitForRequests(count: 1)
        await session.shutdown()
        #expect(try await slow.serializingData() == Data("*****".utf8))
        let after = await session.get("get").response
        #expect(after.error?.reason == .sessionShutDown)
    }

    @Test func theDefaultConfigurationFailsARefusedConnectionAtOnce() {
        // AsyncHTTPClient's default retries a failed connection attempt with back-off until the connect timeout.
        let configuration = AsyncHTTPClientTransport.defaultConfiguration
        #expect(!configuration.connectionPool.retryConnectionEstablishment)
    }

    @Test func aCallersClientIsNeverShutDown() async throws {
        let server = try TestServer()
        defer { server.shutDownInBackground() }
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClientTransport.defaultConfiguration)
        let session = Session(
            configuration: .init(baseURL: server.baseURL, transport: AsyncHTTPClientTransport(client: client)))
        #expect(try await session.get("get").serializingJSON()["url"] != nil)
        await session.shutdown()
        // The client still works: the session did not shut it down.
        let response = try await client.execute(
            HTTPClientRequest(url: server.url("/get").absoluteString), timeout: .seconds(5))
        #expect(response.status.code == 200)
        try await client.shutdown()
    }

    @Test func aStreamOfUnknownLengthIsSentChunkedAsItIsProduced() async throws {
        let server = try TestServer()
        defer { server.shutDownInBackground() }
        let session = Session(configuration: .init(baseURL: server.baseURL, transport: AsyncHTTPClientTransport()))
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        let pieces = (0..<20).map { TestServer.patternBytes(count: 5_000, offset: $0 * 5_000) }
        let producer = Task {
            for piece in pieces {
                continuation.yield(piece)
                await Task.yield()
            }
            continuation.finish()
        }
        let task = session.post("upload", body: .stream(chunks))
        let receipt = try await task.serializingDecodable(Receipt.self)
        _ = await producer.value
        #expect(receipt.chunked)
        #expect(receipt.bytes == 100_000)
        #expect(receipt.checksum == TestServer.checksum(of: TestServer.patternBytes(count: 100_000)))
        #expect(await task.response.metrics.bytesSent == 100_000)
        await session.shutdown()
    }

    @Test(.timeLimit(.minutes(1))) func aStreamThatNeverEndsIsNoLongerReadOnceTheRequestIsCancelled() async throws {
        // Given: a stream body that produced one chunk and then waits forever
        let server = try TestServer()
        defer { server.shutDownInBackground() }
        let session = Session(configuration: .init(baseURL: server.baseURL, transport: AsyncHTTPClientTransport()))
        let (ended, end) = AsyncStream.makeStream(of: Void.self)
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        continuation.onTermination = { _ in
            end.yield()
            end.finish()
        }
        continuation.yield(TestServer.patternBytes(count: 1_000))
        let task = session.post("upload", body: .stream(chunks))
        for await progress in task.uploadProgress where progress.completedBytes == 1_000 { break }

        // When: the request is cancelled while the body waits for its next chunk (the first one was written)
        task.cancel()

        // Then: it fails as cancelled, and the reading of the stream stops (no task left waiting on it)
        #expect(await task.response.error?.reason == .cancelled)
        for await _ in ended { break }
        await session.shutdown()
    }

    @Test func oneTasksRequestsKeepToOneEventLoop() async throws {
        // The engine calls a request's delegate on the loop the request names, hopping there from its connection's
        // loop for every callback; round robin (`.indifferent`) made every other sequential request hop.
        let transport = AsyncHTTPClientTransport()
        let first = try #require(transport.loop())
        for _ in 0..<20 {
            #expect(transport.loop() === first)
        }
        // A caller that runs on one of the group's loops gets its own loop.
        for loop in transport.client.eventLoopGroup.makeIterator() {
            let chosen = try await loop.submit { transport.loop().map(ObjectIdentifier.init) }.get()
            #expect(chosen == ObjectIdentifier(loop))
        }
        await transport.shutdown()
    }

    @Test func aReleasedSessionShutsItsClientDownInTheBackground() async throws {
        let server = try TestServer()
        defer { server.shutDownInBackground() }
        // No shutdown(): the transport's deinit closes the client; AsyncHTTPClient's deinit check must not fire.
        for _ in 0..<5 {
            let session = Session(configuration: .init(baseURL: server.baseURL, transport: AsyncHTTPClientTransport()))
            #expect(try await session.get("get").serializingJSON()["url"] != nil)
        }
    }
}
#endif
