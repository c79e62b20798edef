import Ferry
import Foundation

/// The command line of `ferry-cache-gateway`.
struct GatewayOptions: Sendable {
    var port = 8001
    var upstream = URL(string: "http://127.0.0.1:8000")!
    var mode = CacheMode.private
    var transport = "urlsession"
    var disk: URL?

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard let value = iterator.next() else { Self.usage("\(name) needs a value") }
            switch name {
            case "--port":
                guard let number = Int(value), (1...65_535).contains(number) else {
                    Self.usage("--port takes 1 to 65535")
                }
                port = number
            case "--upstream":
                guard let url = URL(string: value), url.scheme == "http", Self.isLoopback(url.host) else {
                    Self.usage("--upstream takes an http URL on 127.0.0.1, ::1 or localhost")
                }
                upstream = url
            case "--mode":
                switch value {
                case "private": mode = .private
                case "shared": mode = .shared
                default: Self.usage("--mode takes private or shared")
                }
            case "--transport": transport = value
            case "--disk": disk = URL(fileURLWithPath: value, isDirectory: true)
            default: Self.usage("unknown option \(name)")
            }
        }
    }

    func makeTransport() -> any Transport {
        switch transport {
        case "urlsession": return URLSessionTransport()
        case "ahc":
            #if AsyncHTTPClient
            return AsyncHTTPClientTransport()
            #else
            Self.usage("--transport ahc needs the AsyncHTTPClient trait")
            #endif
        default: Self.usage("unknown transport \(transport)")
        }
    }

    func makeCache() -> HTTPCache {
        guard let disk else { return HTTPCache(mode: mode, storage: MemoryCacheStorage(byteLimit: 64 << 20)) }
        do {
            return HTTPCache(mode: mode, storage: try DiskCacheStorage(directory: disk))
        } catch {
            Self.usage("--disk \(disk.path): \(error)")
        }
    }

    private static func isLoopback(_ host: String?) -> Bool {
        guard let host else { return false }
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    private static func usage(_ problem: String) -> Never {
        FileHandle.standardError.write(
            Data(
                """
                ferry-cache-gateway: \(problem)
                usage: ferry-cache-gateway [--port N] [--upstream http://127.0.0.1:PORT] [--mode private|shared] \
                [--transport urlsession|ahc] [--disk DIR]

                """.utf8))
        exit(2)
    }
}
