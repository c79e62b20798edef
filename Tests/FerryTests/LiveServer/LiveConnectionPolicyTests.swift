@testable import Ferry
import FerryTestServer
import Foundation
import Testing

/// ``ConnectionPolicy`` on both transports, against the in-process test server (which counts connections) and the
/// TLS nginx of `scripts/servers.sh` (which offers HTTP/2).
@Suite("Connection policy")
struct LiveConnectionPolicyTests {
    static func transport(_ kind: TransportKind, _ policy: ConnectionPolicy) throws -> any Transport {
        switch kind {
        case .urlSession: try URLSessionTransport(connections: policy)
        #if AsyncHTTPClient
        case .asyncHTTPClient: try AsyncHTTPClientTransport(proxy: .direct, connections: policy)
        #endif
        }
    }

    /// Six requests that each take 300 ms, all at once: the server sees at most the policy's number of
    /// connections, and more without it (so the limit is what holds them).
    @Test(arguments: TransportKind.allCases)
    func theConnectionsPerHostAreCapped(transport: TransportKind) async throws {
        func connections(_ policy: ConnectionPolicy) async throws -> Int {
            let live = try LiveServer(makeTransport: { _ in try! Self.transport(transport, policy) })
            let session = live.session
            try await withThrowingTaskGroup { group in
                for _ in 0..<6 { group.addTask { _ = try await session.get("delay/0.3").serializingData() } }
                try await group.waitForAll()
            }
            return live.server.connectionCount
        }
        #expect(try await connections(ConnectionPolicy(maximumConnectionsPerHost: 2)) <= 2)
        #expect(try await connections(.default) > 2)
    }

    @Test func urlSessionRefusesWhatItHasNoSettingFor() throws {
        let idle = #expect(throws: FerryError.self) {
            try URLSessionTransport(connections: ConnectionPolicy(idleConnectionTimeout: .seconds(5)))
        }
        #expect(idle?.message.contains("idleConnectionTimeout") == true)
        #expect(throws: FerryError.self) {
            try URLSessionTransport(connections: ConnectionPolicy(httpVersions: .http1Only))
        }
        #expect(throws: FerryError.self) {
            try URLSessionTransport(connections: ConnectionPolicy(maximumConnectionsPerHost: 0))
        }
    }

    #if AsyncHTTPClient
    /// The engine fails a request that waited for a connection longer than its connect timeout, even while every
    /// connection is busy serving others; Ferry queues it again, so that only the request's own timeouts bound it.
    @Test func aRequestWaitingForABusyConnectionOutlivesTheConnectTimeout() async throws {
        // Given one connection per host, already open, and a connect timeout shorter than each response takes.
        // The engine reports a wait that ends while its only connection is still connecting as `connectTimeout`
        // (which Ferry rightly does not queue again), and a loaded machine can take that long to connect: so the
        // connection is opened first, and both times widen with the sanitizers.
        let scale = TestTime.scale
        var configuration = AsyncHTTPClientTransport.defaultConfiguration
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
        configuration.timeout.connect = .seconds(Int64(scale))
        let live = try LiveServer(makeTransport: { _ in AsyncHTTPClientTransport(configuration: configuration) })
        let session = live.session
        _ = try await session.get("get").serializingData()
        // When three requests that each take 1.5 connect timeouts run at once (the last waits 3 for the connection)
        let responses = await withTaskGroup(of: DataResponse<Data>.self) { group in
            for _ in 0..<3 { group.addTask { await session.get("delay/\(1.5 * Double(scale))").response } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        // Then each ran, one after the other, on the one connection
        #expect(responses.map(\.statusCode) == [200, 200, 200], "\(responses.compactMap(\.error))")
        #expect(live.server.connectionCount == 1)
    }

    @Test func anIdleConnectionIsClosedAfterThePolicysTimeout() async throws {
        let live = try LiveServer(makeTransport: { _ in
            try! AsyncHTTPClientTransport(
                proxy: .direct, connections: ConnectionPolicy(idleConnectionTimeout: .milliseconds(200)))
        })
        _ = try await live.session.get("get").serializingData()
        // Waits for the client to close its idle connection (the server sees it go), at most 10 s.
        let deadline = ContinuousClock.now + Duration.seconds(10).scaled
        while live.server.openConnectionCount > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(live.server.openConnectionCount == 0)
        #expect(throws: FerryError.self) {
            try AsyncHTTPClientTransport(connections: ConnectionPolicy(idleConnectionTimeout: .zero))
        }
    }

    @Test(.enabled(if: TLSServers.available))
    func http2IsNegotiatedUnlessThePolicySaysHTTP1Only() async throws {
        let tls = TLSPolicy(trustRoots: .only([try TLSServers.root()]))
        func version(_ versions: ConnectionPolicy.HTTPVersions) async throws -> String? {
            let transport = try AsyncHTTPClientTransport(
                proxy: .direct, tls: tls, connections: ConnectionPolicy(httpVersions: versions))
            let session = Session(configuration: .init(transport: transport))
            return await session.get(TLSServers.url("valid")).response.response?.httpVersion
        }
        #expect(try await version(.automatic) == "HTTP/2.0")
        #expect(try await version(.http1Only) == "HTTP/1.1")
    }
    #endif
}
