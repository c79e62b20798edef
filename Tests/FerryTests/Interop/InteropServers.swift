import Foundation
import Testing

/// The real servers `scripts/test.sh` starts (httpbin under gunicorn, nginx, the `websockets` library's server), found
/// through environment variables.
enum InteropServers {
    static let environment = ProcessInfo.processInfo.environment
    static let httpbin = environment["FERRY_HTTPBIN_URL"].flatMap(URL.init(string:))
    static let nginx = environment["FERRY_NGINX_URL"].flatMap(URL.init(string:))
    /// The same nginx on `[::1]`; unset when the machine has no IPv6 loopback.
    static let nginxIPv6 = environment["FERRY_NGINX_URL_IPV6"].flatMap(URL.init(string:))
    static let staticRoot = environment["FERRY_STATIC_ROOT"].map { URL(fileURLWithPath: $0) }
}

@Suite("Interop servers")
struct InteropServersPresenceTests {
    /// Under CI the interop suites must run, not be skipped: fail when the test script did not start the servers.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CI"] == "true"))
    func serversAreRunningUnderCI() {
        #expect(InteropServers.httpbin != nil, "FERRY_HTTPBIN_URL is not set: run the tests with scripts/test.sh")
        #expect(InteropServers.nginx != nil, "FERRY_NGINX_URL is not set: run the tests with scripts/test.sh")
        #expect(
            InteropServers.environment["FERRY_WEBSOCKETS_URL"] != nil,
            "FERRY_WEBSOCKETS_URL is not set: run the tests with scripts/test.sh")
    }
}
