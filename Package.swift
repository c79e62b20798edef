// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Ferry",
    products: [
        .library(name: "Ferry", targets: ["Ferry"]),
        .library(name: "FerryTesting", targets: ["FerryTesting"]),
        .executable(name: "ferry", targets: ["ferry"]),
    ],
    targets: [
        .target(name: "Ferry"),
        .target(name: "FerryTesting", dependencies: ["Ferry"]),
        .target(name: "FerryTestServer"),
        .executableTarget(name: "ferry", dependencies: ["Ferry", "FerryTestServer"]),
        .testTarget(name: "FerryTests", dependencies: ["Ferry", "FerryTesting", "FerryTestServer"]),
        .testTarget(name: "FerryTestServerTests", dependencies: ["FerryTestServer"]),
    ],
    swiftLanguageModes: [.v6]
)
