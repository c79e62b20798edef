import Foundation
import Testing

@testable import FerryTestServer
import FerryLocking

#if canImport(Glibc)
import Glibc
#endif

@Suite("Lifecycle")
struct LifecycleTests {
    @Test(
        "Only loopback hosts are accepted, and ports must be valid",
        arguments: [
            "10.0.0.1", "0.0.0.0", "192.168.1.1", "example.com", "::", "8.8.8.8",
        ])
    func refusesNonLoopback(host: String) {
        #expect(throws: TestServerError.nonLoopbackHost(host)) { try TestServer(host: host) }
    }

    @Test("Invalid ports and busy ports are typed errors")
    func portErrors() throws {
        let server = try TestServer()
        defer { server.shutdown() }

        #expect(throws: TestServerError.invalidPort(70_000)) { try TestServer(port: 70_000) }
        let busy = #expect(throws: TestServerError.self) { try TestServer(port: server.port) }
        #expect(busy?.errno == EADDRINUSE)
    }

    @Test("localhost and 127.0.0.2 are loopback")
    func loopbackAliases() throws {
        let localhost = try TestServer(host: "localhost")
        defer { localhost.shutdown() }

        #expect(localhost.baseURL.absoluteString == "http://127.0.0.1:\(localhost.port)")
        #expect(localhost.url("get?a=1").absoluteString == "http://127.0.0.1:\(localhost.port)/get?a=1")
        #expect(LoopbackAddress("127.0.0.2") != nil)
    }

    @Test("Shutdown with stalled connections returns within a second and closes every descriptor")
    func shutdownClosesEverything() throws {
        let server = try TestServer()
        let stalledHead = try RawClient(port: server.port)
        let stalledBody = try RawClient(port: server.port)
        let idle = try RawClient(port: server.port)
        stalledHead.send(request: "/fault/stall-headers")
        stalledBody.send(request: "/fault/stall-body")
        idle.send(request: "/get")
        _ = try idle.readResponse()
        _ = stalledBody.readAll(timeout: .milliseconds(200))
        let serverDescriptors = server.openDescriptors
        let targets = serverDescriptors.compactMap(Descriptors.target(of:))

        let clock = ContinuousClock()
        let elapsed = clock.measure { server.shutdown() }

        #expect(elapsed < .seconds(1))
        #expect(serverDescriptors.count >= 5, "listener, wake pipe (2) and the three connections")
        #expect(targets.count == serverDescriptors.count)
        let stillOpen = Set(Descriptors.targets().values)
        #expect(targets.allSatisfy { !stillOpen.contains($0) }, "a server socket or pipe is still open")
        #expect(server.openDescriptors.isEmpty)
        #expect(server.openConnectionCount == 0)
        #expect(stalledHead.readAll().ending == .endOfStream)
        #expect(idle.readAll().ending == .endOfStream)
    }

    @Test("Shutdown interrupts a delayed response at once")
    func shutdownInterruptsDelay() async throws {
        let server = try TestServer()
        let client = try RawClient(port: server.port)
        client.send(request: "/delay/30")
        #expect(await server.waitForRequests(count: 1))

        let elapsed = ContinuousClock().measure { server.shutdown() }
        let (bytes, ending) = client.readAll()

        #expect(elapsed < .seconds(1))
        #expect(bytes.isEmpty)
        #expect(ending == .endOfStream)
    }

    @Test("Shutdown is idempotent, and deinit shuts down")
    func idempotentAndDeinit() throws {
        var port = 0
        do {
            let server = try TestServer()
            port = server.port
            server.shutdown()
            server.shutdown()
            #expect(throws: RawClient.ConnectError.self) { try RawClient(port: port) }
        }
        do {
            let server = try TestServer(port: 0)
            port = server.port
            _ = try server.raw("/get")
        }
        #expect(throws: RawClient.ConnectError.self) { try RawClient(port: port) }
    }

    @Test("A handler may call shutdown without deadlocking; the next shutdown waits for it")
    func shutdownFromHandler() throws {
        let server = try TestServer()
        let returned = Locked(false)
        server.setRoute("/stop") { [weak server] _ in
            server?.shutdown()
            returned.withLock { $0 = true }
            return .text("stopping")
        }
        let client = try RawClient(port: server.port)

        client.send(request: "/stop")
        let (_, ending) = client.readAll()
        server.shutdown()

        #expect(ending == .endOfStream)
        #expect(returned.withLock { $0 })
        #expect(server.openDescriptors.isEmpty)
    }

    @Test("waitForRequests returns true once enough requests arrived, false on timeout")
    func waitForRequests() async throws {
        let server = try TestServer()
        defer { server.shutdown() }

        let early = await server.waitForRequests(count: 1, timeout: .milliseconds(50))
        _ = try server.raw("/get")
        let satisfied = await server.waitForRequests(count: 1, timeout: .seconds(5))

        #expect(!early)
        #expect(satisfied)
    }

    @Test("A pending waitForRequests ends with false at shutdown")
    func waitEndsAtShutdown() async throws {
        let server = try TestServer()

        async let waiting = server.waitForRequests(count: 5, timeout: .seconds(30))
        server.shutdown()

        #expect(await waiting == false)
    }
}
