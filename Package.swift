// swift-tools-version: 6.1
import PackageDescription

// By default Ferry depends on no package. The `AsyncHTTPClient` trait (off by default) adds
// swift-server/async-http-client and `AsyncHTTPClientTransport`; with it off, nothing is resolved or fetched, neither
// here nor in packages that depend on Ferry.
let asyncHTTPClient: Set<String> = ["AsyncHTTPClient"]

let package = Package(
    name: "Ferry",
    // `Mutex` (Synchronization) and `Duration` need these.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Ferry", targets: ["Ferry"]),
        .library(name: "FerryTesting", targets: ["FerryTesting"]),
        .executable(name: "ferry", targets: ["ferry"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: "AsyncHTTPClientTransport: Ferry on swift-server/async-http-client, for servers."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        .target(
            name: "Ferry",
            dependencies: [
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: asyncHTTPClient)),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: asyncHTTPClient)),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: asyncHTTPClient)),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: asyncHTTPClient)),
                .product(
                    name: "NIOHTTPCompression", package: "swift-nio-extras", condition: .when(traits: asyncHTTPClient)),
            ]
        ),
        .target(name: "FerryTesting", dependencies: ["Ferry"]),
        .target(name: "FerryTestServer"),
        // The `ferry` command's logic, in a library so that its parser and formatting are unit-tested; the
        // executable only calls it.
        .target(name: "FerryCLI", dependencies: ["Ferry", "FerryTestServer"]),
        .executableTarget(name: "ferry", dependencies: ["FerryCLI"]),
        .testTarget(name: "FerryTests", dependencies: ["Ferry", "FerryTesting", "FerryTestServer", "FerryCLI"]),
        .testTarget(name: "FerryTestServerTests", dependencies: ["FerryTestServer"]),
    ],
    swiftLanguageModes: [.v6]
)
