import Ferry
import FerryTestServer
import Foundation
import Testing

#if AsyncHTTPClient
import AsyncHTTPClient
#endif

@Suite("The default transport")
struct DefaultTransportTests {
    @Test func theBuildChoosesTheDefaultTransport() async {
        let configuration = Session.Configuration()
        #if AsyncHTTPClient && !canImport(Darwin)
        // The trait on a server platform: AsyncHTTPClient, without the user passing it.
        #expect(configuration.transport is AsyncHTTPClientTransport)
        #else
        #expect(configuration.transport is URLSessionTransport)
        #endif
        await configuration.transport.shutdown()
    }

    @Test func aSessionWithoutATransportRunsOnTheDefaultOneAndShutsItDown() async throws {
        let server = try TestServer()
        defer { server.shutDownInBackground() }
        let session = Session(configuration: .init(baseURL: server.baseURL))
        let response = await session.get("get").response
        #expect(response.statusCode == 200)
        #if AsyncHTTPClient && !canImport(Darwin)
        // Only AsyncHTTPClient reports the version it spoke: the request went through it.
        #expect(response.response?.httpVersion == "HTTP/1.1")
        #endif
        await session.shutdown()
        #expect(await session.get("get").response.error?.reason == .sessionShutDown)
    }
}
