// swift-tools-version: 6.2
import PackageDescription

/// The engine's modules and the server's, in release builds, without the run-time exclusivity checks (a
/// `swift_beginAccess`, with a thread-local lookup, on every access to a class's stored property): 6.6% of an
/// update's instructions and 10% of a press's in EngineBench, more in time. A session's state is touched on one
/// event loop at a time and a connection's on its channel's; the compile-time checks stay, and the debug build
/// (the tests) and the fuzzer's build keep the run-time checks. This manifest is tools-version 6.2 so that SwiftPM
/// accepts the flags in a dependency of any kind, by version too (before 6.2 only by path, branch or revision).
let hotPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

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
        .systemLibrary(
            name: "CCairoPango",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "libjpeg-dev"])]
        ),
        .target(name: "CYieldPoint"),
        .target(name: "CJanssonArena", dependencies: ["CJansson", "CYieldPoint"]),
        .target(name: "CThreadSlice"),
        .target(name: "CYoga", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "PropStore", dependencies: ["CYieldPoint"], swiftSettings: hotPath),
        .target(
            name: "BridgeCore",
            dependencies: ["PropStore", "CJansson", "CJanssonArena", "CYieldPoint", "CYoga", "CCairoPango"],
            swiftSettings: hotPath
        ),
        .target(
            name: "BridgeServer",
            dependencies: [
                "BridgeCore",
                "PropStore",
                "CThreadSlice",
                "CYieldPoint",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: hotPath
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
                "CYieldPoint",
                "CCairoPango",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            exclude: ["Sessions"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
