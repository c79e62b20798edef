// swift-tools-version: 6.2
import PackageDescription

// Ferry inside a Hummingbird 2 service: a shared `Session` on AsyncHTTPClient, run by the service group, called from
// the request handlers. Not part of Ferry's own manifest: it may depend on what it needs. Built and tested by
// Ferry's scripts/test.sh (`swift test` in this folder).
//
// A path dependency's identity is its folder's name, which is the checkout's: read it from the manifest's location.
let ferry = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "Ferry"

let package = Package(
    name: "FerryExamples",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "..", traits: ["AsyncHTTPClient", "ServiceLifecycle", "Logging", "Tracing", "OpenAPI"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "QuoteService",
            dependencies: [
                .product(name: "Ferry", package: ferry),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(name: "quote-service", dependencies: ["QuoteService"]),
        // A client of openapi.yaml written against swift-openapi-runtime's protocols, sent through Ferry.
        .target(
            name: "TickerClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi.yaml"]
        ),
        .testTarget(
            name: "TickerClientTests",
            dependencies: [
                "TickerClient",
                .product(name: "Ferry", package: ferry),
                .product(name: "FerryOpenAPI", package: ferry),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "QuoteServiceTests",
            dependencies: [
                "QuoteService",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
