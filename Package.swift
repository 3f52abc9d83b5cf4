// swift-tools-version: 6.1
import PackageDescription

/// The release program's link (see the `actionflow` target).
let releaseLinkFlags = [
    "-static-stdlib", "-Xclang-linker", "-no-pie", "-use-ld=lld",
    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Linker/actionflow.order",
    "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "--no-export-dynamic",
    // The project's unnamed and merged helpers, which no ordering file can name, beside the ordered code.
    "-Xlinker", "-T", "-Xlinker", "\(Context.packageDirectory)/Linker/small-helpers.ld",
    // No std::ios_base::Init from ICU's objects: nothing here uses a C++ stream (CTerminalSupport).
    "-Xlinker", "--wrap=_ZNSt8ios_base4InitC1Ev", "-Xlinker", "--wrap=_ZNSt8ios_base4InitD1Ev",
]

/// Both programs' link settings (see the `actionflow` target).
let programLinkerSettings: [LinkerSetting] = [.unsafeFlags(releaseLinkFlags, .when(platforms: [.linux], configuration: .release))]
    // Foundation's static archives name their C parts only in the modules of the
    // static resource folder; the program's code was compiled against the shared ones.
    + ["CoreFoundation", "_FoundationICU", "_FoundationCShims", "_FoundationCollections"].map {
        .linkedLibrary($0, .when(platforms: [.linux], configuration: .release))
    }

let package = Package(
    name: "actionflow",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "actionflow", targets: ["actionflow"]),
        .executable(name: "actionflow-serve", targets: ["actionflow-serve"]),
        // The REST transport's HTTP client (URLSession), loaded only when that transport runs.
        .library(name: "ActionFlowHTTPEngine", type: .dynamic, targets: ["ActionFlowHTTPEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        // Protocol model: ActionCodeSettings, links, wire types, routing. Pure, no I/O.
        .target(name: "ActionFlowModel", dependencies: ["CByteScan"]),
        // The simulated Firebase project (server side of the embedded transport).
        .target(
            name: "ActionFlowBackend",
            dependencies: ["ActionFlowModel", .product(name: "Yams", package: "Yams")],
            resources: [.copy("../../Resources")]
        ),
        // The pluggable transport protocol and its implementations.
        .target(name: "ActionFlowTransport", dependencies: ["ActionFlowModel", "ActionFlowBackend", "CHTTPEngine"]),
        // URLSession behind a C interface, built as its own library: FoundationNetworking and
        // libcurl are loaded when the REST transport first needs them, not by every start.
        .target(name: "CHTTPEngine"),
        .target(name: "ActionFlowHTTPEngine", dependencies: ["CHTTPEngine"]),
        // The simulated mobile app: reducer, runtime, scenarios.
        .target(
            name: "ActionFlowClient",
            dependencies: ["ActionFlowModel", "ActionFlowTransport", "ActionFlowBackend", .product(name: "Yams", package: "Yams")]
        ),
        // ncursesw, wide-character API. No pkgConfig: its flags only repeat what the shim defines,
        // and SwiftPM warns about them.
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
        // Async-signal-safe terminal restore, signal flags and pseudo-terminals, in C; also the
        // empty C++ stream set-up that the release link routes ICU's constructors to.
        .target(name: "CTerminalSupport"),
        // Byte scans sixteen at a time (SSE2, with a plain loop elsewhere) for the link inspector,
        // the terminal-safety check and `inspect --jsonl`.
        .target(name: "CByteScan"),
        // The full-screen front end: cell frames, terminal drivers, screens over the client state.
        .target(
            name: "ActionFlowTUI",
            dependencies: [
                "ActionFlowModel", "ActionFlowTransport", "ActionFlowBackend", "ActionFlowClient",
                "CNcurses", "CTerminalSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `actionflow serve`: any AuthTransport behind the Auth Emulator's HTTP surface.
        .target(
            name: "ActionFlowServer",
            dependencies: [
                "ActionFlowModel", "ActionFlowBackend", "ActionFlowTransport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]
        ),
        // The command line: the interface's launch, run, inspect, serve, bench and the rest.
        .target(
            name: "ActionFlowCommands",
            dependencies: [
                "CByteScan", "ActionFlowModel", "ActionFlowBackend", "ActionFlowTransport", "ActionFlowClient", "ActionFlowTUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `serve` and `bench serve` themselves, run by `actionflow-serve` (ServerProgram).
        .target(
            name: "ActionFlowServeCommands",
            dependencies: [
                "ActionFlowCommands", "ActionFlowServer", "ActionFlowBackend", "ActionFlowModel", "ActionFlowTransport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The program. A release build links the Swift runtime and Foundation into it: loading
        // them as shared libraries took longer than the whole Swift floor's start (README,
        // "Benchmark"). Debug builds and the test bundles stay dynamic; so does the HTTP engine.
        // lld places the functions a session runs side by side, in the order of
        // Linker/actionflow.order (`actionflow bench code-order` writes it), and the program
        // exports no symbols, which the loader would otherwise search on every look-up.
        .executableTarget(
            name: "actionflow",
            dependencies: ["ActionFlowCommands"],
            linkerSettings: programLinkerSettings
        ),
        // `actionflow serve` and `bench serve` hand over to this program: the only one that links
        // SwiftNIO and Hummingbird (ServerProgram). It runs every other command as `actionflow`
        // does. `swift build` builds both; a dependency of `actionflow` on it would link it in.
        .executableTarget(name: "actionflow-serve", dependencies: ["ActionFlowServeCommands"], linkerSettings: programLinkerSettings),
        // Test helpers that several test targets share.
        .target(name: "TestSupport", dependencies: ["ActionFlowServer"], path: "Tests/TestSupport"),
        .testTarget(
            name: "ActionFlowModelTests",
            dependencies: ["ActionFlowModel", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "ActionFlowBackendTests",
            dependencies: [
                "ActionFlowBackend", "ActionFlowTransport", .product(name: "Yams", package: "Yams"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ActionFlowClientTests",
            dependencies: ["ActionFlowClient", "ActionFlowModel", "ActionFlowTransport", "ActionFlowBackend", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")],
            exclude: ["Interop"]
        ),
        .testTarget(
            name: "ActionFlowServerTests",
            dependencies: [
                "ActionFlowServer", "ActionFlowTransport", "ActionFlowBackend", "ActionFlowModel", "ActionFlowClient", "CHTTPEngine",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["Interop"]
        ),
        // The headless commands, run in-process.
        .testTarget(
            name: "ActionFlowCommandTests",
            dependencies: ["ActionFlowCommands", "ActionFlowClient", "ActionFlowModel", "ActionFlowTransport", "ActionFlowServer", "ActionFlowTUI", "TestSupport"],
            exclude: ["Interop"]
        ),
        .testTarget(name: "ActionFlowEndToEndTests", dependencies: ["TestSupport"]),
        // The fuzz targets' invariants (README, "Robustness"), shared by the fuzzer and by the
        // tests that replay every seed and every input a fuzzer once found.
        .target(
            name: "FuzzChecks",
            dependencies: ["ActionFlowModel", "ActionFlowBackend", "ActionFlowTransport", "ActionFlowClient", "ActionFlowTUI", "ActionFlowServer"],
            path: "Fuzz/Checks"
        ),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzChecks"]),
        .testTarget(name: "ActionFlowTUITests", dependencies: ["ActionFlowTUI", "ActionFlowClient", "ActionFlowModel", "ActionFlowBackend"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)

// Each function of the project's own modules in a section of its own, so that a release link can
// place the code a session runs side by side (README, "Benchmark": peak memory).
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release))]
}

// The libFuzzer executable (README, "Robustness"): declared only when ACTIONFLOW_FUZZ=1, which
// `scripts/fuzz` sets to build it into .build-fuzz with the project's own modules instrumented
// for coverage and the address sanitizer. A normal build never sees it: it cannot link without
// the fuzzer runtime. Dependencies stay uninstrumented, which keeps the build short.
if Context.environment["ACTIONFLOW_FUZZ"] == "1" {
    let sanitizers = ["-sanitize=fuzzer,address"]
    for target in package.targets where target.type == .regular {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(sanitizers)]
        target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-fsanitize=fuzzer-no-link,address"])]
    }
    package.targets.append(.executableTarget(
        name: "ActionFlowFuzz",
        dependencies: ["FuzzChecks"],
        path: "Fuzz/Driver",
        swiftSettings: [.unsafeFlags(sanitizers + ["-parse-as-library"])],
        linkerSettings: [.unsafeFlags(sanitizers + ["-use-ld=lld"])]
    ))
}
