import Ferry
import FerryOpenAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TickerClient

@Suite("An OpenAPI client streaming server-sent events through Ferry")
struct TickerClientTests {
    /// The first tick arrives while the server still holds the second back: the body streams on both of Ferry's
    /// transports, URLSession on Linux included.
    @Test(arguments: ["URLSession", "AsyncHTTPClient"]) func ticksArriveAsTheyHappen(
        transport name: String
    ) async throws {
        let ticker = Ticker()
        try await ticker.run { url in
            let transport: any Transport = name == "URLSession" ? URLSessionTransport() : AsyncHTTPClientTransport()
            let session = Session(configuration: .init(idleTimeout: .seconds(30), transport: transport))
            let client = TickerClient(serverURL: url, transport: FerryOpenAPITransport(session))
            var ticks = try await client.ticks(count: 3).makeAsyncIterator()
            #expect(try await ticks.next() == Tick(index: 0))
            #expect(ticker.held)  // the server has not sent the second tick yet
            ticker.release()
            #expect(try await ticks.next() == Tick(index: 1))
            #expect(try await ticks.next() == Tick(index: 2))
            #expect(try await ticks.next() == nil)
            await session.shutdown()
        }
    }
}
