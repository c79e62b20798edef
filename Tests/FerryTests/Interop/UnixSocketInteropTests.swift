import Ferry
import Foundation
import Testing

/// nginx on a Unix domain socket (`scripts/servers.sh`, `FERRY_NGINX_SOCKET`), as the Docker and Podman APIs are.
@Suite(
    "Interop: nginx on a Unix domain socket",
    .enabled(if: InteropServers.environment["FERRY_NGINX_SOCKET"] != nil))
struct UnixSocketInteropTests {
    /// `http+unix://` with the socket's path, percent-encoded, as the host.
    let base: URL = {
        let path = InteropServers.environment["FERRY_NGINX_SOCKET"]!
        let host = path.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return URL(string: "http+unix://\(host)")!
    }()

    struct Small: Decodable {
        var name: String
    }

    @Test(arguments: TransportKind.allCases)
    func aUnixSocketURLIsReachedOrRefusedClearly(transport: TransportKind) async throws {
        let session = Session(configuration: .init(baseURL: base, transport: transport.makeTransport()))
        let response = await session.get("small.json").serialized(by: .decodable(Small.self)).response
        switch transport {
        case .urlSession:
            let error = try #require(response.error)
            #expect(
                error.reason
                    == .unsupportedSetting(
                        setting: "a Unix domain socket (http+unix) on URLSession",
                        remedy: error.recoverySuggestion ?? ""))
            #expect(error.recoverySuggestion?.contains("AsyncHTTPClientTransport") == true)
        #if AsyncHTTPClient
        case .asyncHTTPClient:
            #expect(response.value?.name == "Ferry", "\(String(describing: response.error))")
            // A relative redirect stays on the socket (nginx answers /redirect-relative with 302 to /small.json).
            let redirected = await session.get("redirect-relative").serialized(by: .decodable(Small.self)).response
            #expect(redirected.value?.name == "Ferry", "\(String(describing: redirected.error))")
        #endif
        }
    }
}
