// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "bridged",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "bridged", targets: ["bridged"]),
        .library(name: "BridgeServer", targets: ["BridgeServer"]),
        .library(name: "BridgeCore", targets: ["BridgeCore"]),
        .library(name: "PropStore", targets: ["PropStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),
        .target(name: "PropStore"),
        .target(name: "BridgeCore", dependencies: ["PropStore", "CJansson"]),
        .target(
            name: "BridgeServer",
            dependencies: [
                "BridgeCore",
                "PropStore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(name: "bridged", dependencies: ["BridgeServer", "PropStore"]),
        .executableTarget(name: "EngineBench", dependencies: ["BridgeCore"], path: "bench/EngineBench"),
        .executableTarget(name: "FuzzEngine", dependencies: ["BridgeCore"], path: "Tests/Fuzz/FuzzEngine"),
        .testTarget(
            name: "BridgeTests",
            dependencies: [
                "BridgeCore",
                "BridgeServer",
                "PropStore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            exclude: ["Sessions"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
