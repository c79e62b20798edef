// swift-tools-version: 6.1
import PackageDescription

// Ferry's benchmarks: their own package, so that Ferry's manifest stays free of dependencies.
//
// - TransferBench: memory and progress cost of Ferry's transfers (run-transfers.sh).
// - ThroughputBench: Ferry against raw URLSession and raw AsyncHTTPClient, side by side (run-throughput.sh).
// - WebSocketBench: Ferry's WebSocket against swift-websocket's client, and an echo server (run-websocket.sh).
// - FerryPipeline: allocations and instructions per request on the in-memory transport, with checked-in
//   thresholds (`swift package benchmark`, ordo-one/benchmark; sources under Benchmarks/, as it requires).
// - PipelineInstructions: the same scenarios (PipelineScenarios) under callgrind, for instruction counts where the
//   machine has no hardware performance counters (run-pipeline-instructions.sh).
//
// Peers: with FERRY_BENCH_PEERS set to a folder holding checkouts named Alamofire/ and Get/ (made by whoever runs the
// benchmark, never committed; README "Peers: Alamofire and Get"), ThroughputBench also depends on those two and is
// compiled with FERRY_BENCH_PEERS defined, which adds the clients `alamofire` and `get`. Without it the package is
// what it was: no other dependency, no other client.
let peers = Context.environment["FERRY_BENCH_PEERS"].flatMap { $0.isEmpty ? nil : $0 }
let peerPackages: [Package.Dependency] =
    peers.map { [.package(path: "\($0)/Alamofire"), .package(path: "\($0)/Get")] } ?? []
let peerProducts: [Target.Dependency] =
    peers == nil ? [] : [.product(name: "Alamofire", package: "Alamofire"), .product(name: "Get", package: "Get")]
let peerSettings: [SwiftSetting] = peers == nil ? [] : [.define("FERRY_BENCH_PEERS")]

let package = Package(
    name: "FerryBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Ferry", path: "../", traits: ["AsyncHTTPClient", "WebSocket"]),
        // MallocInterposer only: the default trait set also pulls in a runtime interposer on Linux with Swift 6.3.
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", .upToNextMinor(from: "1.6.2")),
    ] + peerPackages,
    targets: [
        .executableTarget(
            name: "TransferBench",
            dependencies: [.product(name: "Ferry", package: "Ferry")]
        ),
        .executableTarget(
            name: "ThroughputBench",
            dependencies: [
                .product(name: "Ferry", package: "Ferry"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ] + peerProducts,
            swiftSettings: peerSettings
        ),
        .executableTarget(
            name: "WebSocketBench",
            dependencies: [
                .product(name: "Ferry", package: "Ferry"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .target(
            name: "PipelineScenarios",
            dependencies: [
                .product(name: "Ferry", package: "Ferry"),
                .product(name: "FerryTesting", package: "Ferry"),
            ]
        ),
        .executableTarget(name: "PipelineInstructions", dependencies: ["PipelineScenarios"]),
        .executableTarget(
            name: "FerryPipeline",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "PipelineScenarios",
            ],
            path: "Benchmarks/FerryPipeline",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
