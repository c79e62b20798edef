#if WebSocket
import Ferry
import Foundation
import Testing

/// Autobahn|Testsuite's fuzzing server (`scripts/autobahn-server.py`, started by `scripts/servers.sh`): the WebSocket
/// conformance suite, over 500 cases of framing, fragmentation, control frames, UTF-8, close codes, limits and
/// `permessage-deflate`. The client under test echoes every message of each case back; the server judges what it saw
/// and writes a report per case.
enum AutobahnServer {
    static let url = InteropServers.environment["FERRY_AUTOBAHN_URL"]
    /// The directory the server writes its reports to (`index.json` sums them up).
    static let reports = InteropServers.environment["FERRY_AUTOBAHN_REPORTS"]
}

@Suite(
    "Conformance: Autobahn|Testsuite's fuzzing server judges every case",
    .enabled(if: AutobahnServer.url != nil && AutobahnServer.reports != nil), .serialized)
struct AutobahnConformanceTests {
    /// What Autobahn calls a pass: `OK`, `NON-STRICT` (a lenient but allowed answer) and `INFORMATIONAL` (nothing to
    /// judge).
    static let passing: Set<String> = ["OK", "NON-STRICT", "INFORMATIONAL"]

    /// Messages up to the suite's largest (16 MiB in cases 9.x), compression offered (cases 12.x and 13.x).
    static let options = WebSocketOptions(
        maximumMessageSize: 17 << 20, closeTimeout: .seconds(5), offersCompression: true)

    @Test(.timeLimit(.minutes(10)), arguments: TransportKind.allCases)
    func everyCasePassesOrIsInformational(transport: TransportKind) async throws {
        let agent = "Ferry-\(transport)"
        let session = Session(
            configuration: .init(idleTimeout: Duration.seconds(60).scaled, transport: transport.makeTransport()))
        // Given the number of cases the server has
        let counter = session.webSocket("\(AutobahnServer.url!)/getCaseCount")
        var first = counter.messages.makeAsyncIterator()
        guard case .text(let text) = try await first.next(), let count = Int(text), count > 0 else {
            Issue.record("the server did not say how many cases it has")
            return
        }
        // When each case runs, every message echoed back as it came
        for number in 1...count {
            let socket = session.webSocket(
                "\(AutobahnServer.url!)/runCase?case=\(number)&agent=\(agent)", options: Self.options)
            do {
                for try await message in socket.messages { try await socket.send(message) }
            } catch {
                // A case that ends in a failed connection ends here: the server's report judges it.
            }
            await socket.close()
        }
        let updater = session.webSocket("\(AutobahnServer.url!)/updateReports?agent=\(agent)")
        for try await _ in updater.messages {}
        // Then the server's reports judge every case a pass
        let index = URL(fileURLWithPath: AutobahnServer.reports!).appendingPathComponent("index.json")
        let reports = try JSONDecoder().decode([String: [String: CaseReport]].self, from: Data(contentsOf: index))
        let cases = try #require(reports[agent])
        #expect(cases.count == count)
        let failing = cases.filter {
            !Self.passing.contains($0.value.behavior) || !Self.passing.contains($0.value.behaviorClose)
        }
        #expect(
            failing.isEmpty,
            "\(failing.count) of \(count) cases: \(failing.keys.sorted().map { "\($0) \(failing[$0]!)" }.prefix(40))")
    }

    /// One case's line in the server's `index.json`.
    struct CaseReport: Decodable, CustomStringConvertible {
        var behavior: String
        var behaviorClose: String
        var remoteCloseCode: Int?

        var description: String {
            "\(behavior)/\(behaviorClose)\(remoteCloseCode.map { " (close \($0))" } ?? "")"
        }
    }
}
#endif
