import Ferry
import FerryTestServer
import Dispatch
import Foundation

/// A test server on a random loopback port and a session pointed at it over a given transport, for one test.
struct LiveServer: ~Copyable {
    let server: TestServer
    let session: Session

    init(transport: TransportKind = .urlSession, configure: (inout Session.Configuration) -> Void = { _ in }) throws {
        try self.init(makeTransport: { _ in transport.makeTransport() }, configure: configure)
    }

    /// A server and a session whose transport `makeTransport` makes for that server (an in-memory one that answers
    /// through ``TestServer/answerInProcess(_:)``, for instance).
    init(
        makeTransport: (TestServer) -> any Transport, configure: (inout Session.Configuration) -> Void = { _ in }
    ) throws {
        server = try TestServer()
        var configuration = Session.Configuration(
            baseURL: server.baseURL, idleTimeout: Duration.seconds(10).scaled, transport: makeTransport(server))
        configure(&configuration)
        session = Session(configuration: configuration)
    }

    deinit {
        server.shutDownInBackground()
    }
}

extension TestServer {
    /// Shuts the server down off the cooperative thread pool: its shutdown waits for every connection thread, and
    /// one still pacing a response it no longer needs to send must not stall other tests' tasks.
    func shutDownInBackground() {
        DispatchQueue.global().async { [self] in shutdown() }
    }
}
