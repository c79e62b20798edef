// swift-tools-version: 6.1
import PackageDescription

// By default Ferry depends on no package. Each integration is a package trait, off by default, that adds its
// package(s) and its API; with every trait off, nothing is resolved or fetched, neither here nor in packages that
// depend on Ferry. `swift build --traits OpenAPI,Logging` turns some on; a dependent package names them in its
// `.package(url:…, traits: ["OpenAPI"])`.
let asyncHTTPClient: Set<String> = ["AsyncHTTPClient"]
let httpTypes: Set<String> = ["HTTPTypes"]
let openAPI: Set<String> = ["OpenAPI"]
let logging: Set<String> = ["Logging"]
let tracing: Set<String> = ["Tracing"]
let metrics: Set<String> = ["Metrics"]
let serviceLifecycle: Set<String> = ["ServiceLifecycle"]
let webSocket: Set<String> = ["WebSocket"]
// SwiftNIO serves the AsyncHTTPClient transport and the WebSocket client alike.
let nio = asyncHTTPClient.union(webSocket)

let package = Package(
    name: "Ferry",
    // `Mutex` (Synchronization) and `Duration` need these.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Ferry", targets: ["Ferry"]),
        .library(name: "FerryTesting", targets: ["FerryTesting"]),
        .library(name: "FerryOpenAPI", targets: ["FerryOpenAPI"]),
        .executable(name: "ferry", targets: ["ferry"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: "AsyncHTTPClientTransport: Ferry on swift-server/async-http-client, for servers."
        ),
        .trait(
            name: "HTTPTypes",
            description: "Conversions to and from apple/swift-http-types' HTTPRequest, HTTPResponse and HTTPFields."
        ),
        .trait(
            name: "OpenAPI",
            description: "FerryOpenAPITransport (product FerryOpenAPI): a swift-openapi-runtime ClientTransport.",
            enabledTraits: ["HTTPTypes"]
        ),
        .trait(name: "Logging", description: "A swift-log Logger per session and per request."),
        .trait(name: "Tracing", description: "A swift-distributed-tracing client span per request, traceparent sent."),
        .trait(name: "Metrics", description: "swift-metrics request duration, active requests, retries, timeouts."),
        .trait(name: "ServiceLifecycle", description: "Session as a swift-service-lifecycle Service."),
        .trait(
            name: "WebSocket",
            description:
                "Session.webSocket(_:) on Linux and macOS through hummingbird-project/swift-websocket's client."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Up to the next minor only: Ferry drives its frame handler through an SPI (WSInternal) that may change.
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", .upToNextMinor(from: "1.6.2")),
    ],
    targets: [
        .target(
            name: "Ferry",
            dependencies: [
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: asyncHTTPClient)),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: nio)),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: nio)),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: nio)),
                .product(
                    name: "NIOHTTPCompression", package: "swift-nio-extras", condition: .when(traits: asyncHTTPClient)),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: nio)),
                // The WebSocket trait reads extension headers as swift-http-types' HTTPFields.
                .product(
                    name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: httpTypes.union(webSocket))
                ),
                // swift-websocket's handler logs through swift-log, so the WebSocket trait needs it too.
                .product(name: "Logging", package: "swift-log", condition: .when(traits: logging.union(webSocket))),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: tracing)),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: metrics)),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: serviceLifecycle)),
                .product(name: "WSCore", package: "swift-websocket", condition: .when(traits: webSocket)),
                .product(name: "WSCompression", package: "swift-websocket", condition: .when(traits: webSocket)),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: webSocket)),
                // A WebSocket's proxy tunnel (HTTP CONNECT, SOCKS5); swift-websocket already depends on this package.
                .product(name: "NIOExtras", package: "swift-nio-extras", condition: .when(traits: webSocket)),
                .product(name: "NIOSOCKS", package: "swift-nio-extras", condition: .when(traits: webSocket)),
            ]
        ),
        // Empty unless the OpenAPI trait is on (its sources are behind `#if OpenAPI`).
        .target(
            name: "FerryOpenAPI",
            dependencies: [
                "Ferry",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: openAPI)),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: openAPI)),
            ]
        ),
        .target(name: "FerryTesting", dependencies: ["Ferry"]),
        // The one `Locked` of every module that is not a library (the libraries keep a copy each: see Locked.swift).
        .target(name: "FerryLocking"),
        .target(name: "FerryTestServer", dependencies: ["FerryLocking"]),
        // The `ferry` command's logic, in a library so that its parser and formatting are unit-tested; the
        // executable only calls it.
        .target(name: "FerryCLI", dependencies: ["Ferry", "FerryTestServer", "FerryLocking"]),
        .executableTarget(name: "ferry", dependencies: ["FerryCLI"]),
        // A bounded soak against the in-process test server (not part of the test run; scripts/soak.sh).
        .executableTarget(name: "ferry-soak", dependencies: ["Ferry", "FerryTestServer", "FerryLocking"]),
        // A caching reverse proxy made of a Ferry session, for HTTP cache test suites written for proxies
        // (scripts/cache-tests.sh). Not a product.
        .executableTarget(name: "ferry-cache-gateway", dependencies: ["Ferry", "FerryTestServer", "FerryLocking"]),
        // Two threads racing (or not) on a counter, to prove that a ThreadSanitizer build sees races through Ferry's
        // lock seam (`Locked`); scripts/sanitizers.sh runs it. Not a product.
        .executableTarget(name: "ferry-tsan-canary", dependencies: ["FerryLocking"]),
        .testTarget(
            name: "FerryTests",
            dependencies: [
                "Ferry", "FerryOpenAPI", "FerryTesting", "FerryTestServer", "FerryCLI", "FerryLocking",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: openAPI)),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: httpTypes)),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: logging)),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: tracing)),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: metrics)),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: metrics)),
                .product(
                    name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: tracing)),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: serviceLifecycle)),
                // The keep-alive handler's tests drive it in an EmbeddedChannel, on a clock they advance; the proxy
                // tunnel's tests also open a real socket (NIOPosix).
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: webSocket)),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: webSocket)),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: webSocket)),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: webSocket)),
            ]
        ),
        .testTarget(name: "FerryTestServerTests", dependencies: ["FerryTestServer", "FerryLocking"]),
    ],
    swiftLanguageModes: [.v6]
)
