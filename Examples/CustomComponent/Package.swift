// swift-tools-version: 6.1
// A daemon of your own: the bridged command line serving your components. It depends on bridged by path;
// in your own package, point `path:` at your checkout of bridged (or use `.package(url:from:)`).
import PackageDescription

let package = Package(
    name: "CustomComponent",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "bridged", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "ChartDaemon",
            dependencies: [.product(name: "BridgeServer", package: "bridged")]
        )
    ],
    swiftLanguageModes: [.v6]
)
