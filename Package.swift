// swift-tools-version: 6.2
import PackageDescription

// Streams and REST requests on Linux go over AsyncHTTPClient: FoundationNetworking's URLSession
// spins while a stream is idle. Builds that leave it out fall back to URLSession: fuzz builds
// (`LIVE_FUZZ=1`, Tools/fuzz), which exercise parsers only, and sanitized test builds
// (`LIVE_URLSESSION=1`, Tools/test), which would otherwise compile BoringSSL under each sanitizer.
let leavesHTTPClientOut = Context.environment["LIVE_FUZZ"] != nil || Context.environment["LIVE_URLSESSION"] != nil
let httpClient: [Target.Dependency] = leavesHTTPClientOut ? [] : [
    .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
    .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
    .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(platforms: [.linux])),
]

// The web pages' files, compiled into their module as `PackageResources.<name>` (bytes): an
// installed binary serves them wherever it is, without a resource bundle beside it.
func embedded(_ paths: [String]) -> [Resource] { paths.map { .embedInCode($0) } }

let package = Package(
    name: "LiveCollection",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "LiveModel", targets: ["LiveModel"]),
        .library(name: "LiveCollection", targets: ["LiveCollection"]),
        .library(name: "LiveSections", targets: ["LiveSections"]),
        .library(name: "LiveFirebase", targets: ["LiveFirebase"]),
        .library(name: "LiveServer", targets: ["LiveServer"]),
        .library(name: "LiveREPL", targets: ["LiveREPL"]),
        .executable(name: "live-server", targets: ["live-server"]),
        .executable(name: "live-repl", targets: ["live-repl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // `swift package generate-documentation`: the DocC catalogs in Sources/*/*.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CJansson",
            path: "CSupport/CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"]), .brew(["jansson"])]
        ),
        .systemLibrary(
            name: "CEditLine",
            path: "CSupport/CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"]), .brew(["libedit"])]
        ),
        .target(
            name: "CLiveCore",
            dependencies: ["CJansson"],
            path: "CSupport/CLiveCore",
            cSettings: [.define("_POSIX_C_SOURCE", to: "200809L")],
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),
        .target(
            name: "LiveModel",
            dependencies: ["CLiveCore", "CJansson"],
            path: "Sources/LiveModel"
        ),
        .target(
            name: "LiveCollection",
            dependencies: ["LiveModel", "CLiveCore"],
            path: "Sources/LiveCollection"
        ),
        .target(
            name: "LiveSections",
            dependencies: ["LiveCollection", "LiveModel"],
            path: "Sources/LiveSections"
        ),
        .target(
            name: "LiveFirebase",
            dependencies: [
                "LiveModel", "LiveCollection", "LiveSections",
                .product(name: "Logging", package: "swift-log"),
            ] + httpClient,
            path: "Sources/LiveFirebase"
        ),
        .target(
            name: "LiveServer",
            dependencies: [
                "LiveModel",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            path: "Sources/LiveServer",
            resources: embedded([
                "WebPage/page.html", "WebPage/page.css", "WebPage/events.js",
                "Console/Pages/console.html", "Console/Pages/console.css", "Console/Pages/console.js",
                "Console/Pages/console-tree.js", "Console/Pages/console-actions.js",
            ])
        ),
        .executableTarget(
            name: "live-server",
            dependencies: [
                "LiveServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tools/live-server"
        ),
        .target(
            name: "LiveREPL",
            dependencies: [
                "LiveModel", "LiveCollection", "LiveSections", "LiveFirebase",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/LiveREPL"
        ),
        .executableTarget(
            name: "live-repl",
            dependencies: [
                "LiveREPL", "LiveServer", "LiveFirebase", "LiveModel", "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tools/REPL",
            resources: embedded([
                "Web/Pages/inspector.html", "Web/Pages/inspector.css", "Web/Pages/inspector-model.js",
                "Web/Pages/inspector-list.js", "Web/Pages/inspector-app.js",
            ])
        ),
        .executableTarget(
            name: "live-soak",
            dependencies: [
                "LiveFirebase", "LiveSections", "LiveCollection", "LiveModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/Soak"
        ),
        .executableTarget(
            name: "LiveBench",
            dependencies: [
                "CLiveCore", "CJansson", "LiveModel", "LiveCollection", "LiveSections", "LiveServer", "LiveFirebase",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/LiveBench"
        ),
        // What every test target shares: the seed of randomised tests, and
        // blocking work off the cooperative pool.
        .target(
            name: "LiveTestSupport",
            dependencies: ["LiveModel"],
            path: "Tests/LiveTestSupport"
        ),
        .testTarget(
            name: "LiveCollectionTests",
            dependencies: ["LiveCollection", "LiveModel", "LiveTestSupport"],
            path: "Tests/LiveCollectionTests"
        ),
        .testTarget(
            name: "LiveSectionsTests",
            dependencies: ["LiveSections", "LiveCollection", "LiveModel", "LiveTestSupport"],
            path: "Tests/LiveSectionsTests"
        ),
        .testTarget(
            name: "LiveFirebaseTests",
            dependencies: [
                "LiveFirebase", "LiveServer", "LiveSections", "LiveCollection", "LiveModel", "LiveTestSupport",
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/LiveFirebaseTests",
            exclude: ["Conformance/README.md"],
            resources: [.copy("Conformance/syncPointSpec.json")]
        ),
        .testTarget(
            name: "LiveServerTests",
            dependencies: [
                "LiveServer", "LiveModel", "LiveTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Tests/LiveServerTests"
        ),
        .testTarget(
            name: "LiveREPLTests",
            dependencies: ["LiveREPL", "LiveSections", "LiveFirebase", "LiveServer", "LiveModel", "LiveTestSupport"],
            path: "Tests/LiveREPLTests",
            resources: [.copy("Transcripts")]
        ),
        .testTarget(
            name: "LiveModelTests",
            dependencies: ["LiveModel", "CLiveCore", "CJansson", "LiveTestSupport"],
            path: "Tests/LiveModelTests"
        ),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c11
)

// libFuzzer targets, only when asked for (`LIVE_FUZZ=1`, as `Tools/fuzz` does): they are built
// with `-sanitize=fuzzer`, and each hands its entry point to libFuzzer.
if Context.environment["LIVE_FUZZ"] != nil {
    package.targets += [
        .target(name: "CFuzzDriver", path: "Tests/Fuzz/Swift/Driver"),
        .executableTarget(
            name: "fuzz-sse",
            dependencies: ["LiveFirebase", "CFuzzDriver"],
            path: "Tests/Fuzz/Swift/SSE",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "fuzz-commands",
            dependencies: ["LiveREPL", "LiveModel", "CFuzzDriver"],
            path: "Tests/Fuzz/Swift/Commands",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        // The server's HTTP pipeline and REST semantics, its data-file and the client's
        // cache and write-queue readers, and the stream's state machine: these drive
        // internal types (`@testable import`), so their modules are built for testing
        // below, in fuzz builds only.
        .executableTarget(
            name: "fuzz-http",
            dependencies: [
                "LiveServer", "LiveModel", "CFuzzDriver",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Fuzz/Swift/HTTP",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "fuzz-files",
            dependencies: ["LiveServer", "LiveFirebase", "LiveModel", "CFuzzDriver"],
            path: "Tests/Fuzz/Swift/Files",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "fuzz-stream",
            dependencies: ["LiveFirebase", "LiveModel", "CFuzzDriver"],
            path: "Tests/Fuzz/Swift/Stream",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
    for target in package.targets where target.name == "LiveServer" || target.name == "LiveFirebase" {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-enable-testing"])]
    }
}
