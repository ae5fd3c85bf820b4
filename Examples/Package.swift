// swift-tools-version: 6.2
// Examples of LiveCollection, as an app would use it: a package of its own
// that depends on LiveCollection by path.
import PackageDescription

let package = Package(
    name: "Examples",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "LiveCollection", path: "..")],
    targets: [
        // A leaderboard sectioned by team, on the embedded local server: runs on Linux.
        .executableTarget(
            name: "Leaderboard",
            dependencies: [
                .product(name: "LiveFirebase", package: "LiveCollection"),
                .product(name: "LiveServer", package: "LiveCollection"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
