// swift-tools-version: 6.1
import PackageDescription

// Ferry's benchmarks: their own package, so that Ferry's manifest stays free of dependencies.
let package = Package(
    name: "FerryBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Ferry", path: "../")
    ],
    targets: [
        .executableTarget(
            name: "TransferBench",
            dependencies: [.product(name: "Ferry", package: "Ferry")]
        )
    ],
    swiftLanguageModes: [.v6]
)
