import Ferry
import FerryTestServer
import Dispatch
import Foundation

/// A test server on a random loopback port and a session pointed at it over a given transport, for one test.
struct LiveServer: ~Copyable {
    let server: TestServer
    let session: Session

    init(transport: TransportKind = .urlSession, configure: (inout Session.Configuration) -> Void = { _ in }) throws {
        server = try TestServer()
        var configuration = Session.Configuration(
            baseURL: server.baseURL, idleTimeout: Duration.seconds(10).scaled, transport: transport.makeTransport())
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
