// swift-tools-version: 6.1
import PackageDescription

// The release programs' link. The Swift runtime and Foundation are linked statically: loading
// them as shared libraries took longer than a Swift program's whole start. lld packs the
// relative relocations and exports no symbols: otherwise the loader reads some 3 MB of
// relocation and symbol tables on every start. Foundation's static archives name their C parts
// only in the static resource folder's modules, so those are named too.
let programLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
                 .when(platforms: [.linux], configuration: .release)),
]
    + ["CoreFoundation", "_FoundationICU", "_FoundationCShims", "_FoundationCollections"].map {
        .linkedLibrary($0, .when(platforms: [.linux], configuration: .release))
    }

/// SwiftNIO's HTTP/1 pieces, which the REST transport, the server and the load tools share.
let swiftNIOHTTP: [Target.Dependency] = ["NIOCore", "NIOPosix", "NIOHTTP1"].map { .product(name: $0, package: "swift-nio") }

let package = Package(
    name: "actionflow",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "actionflow", targets: ["actionflow"]),
        .executable(name: "actionflow-serve", targets: ["actionflow-serve"]),
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
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        // Protocol model: ActionCodeSettings, links, wire types, routing. Pure, no I/O.
        .target(name: "ActionFlowModel"),
        // The simulated Firebase project (server side of the embedded transport).
        .target(
            name: "ActionFlowBackend",
            dependencies: ["ActionFlowModel", .product(name: "Yams", package: "Yams"), .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("../../Resources")]
        ),
        // The pluggable transport protocol and its implementations. The REST transport's HTTP
        // client is AsyncHTTPClient: linked statically and started on first use, where
        // FoundationNetworking would load libcurl and its libraries on every start.
        .target(
            name: "ActionFlowTransport",
            dependencies: [
                "ActionFlowModel", "ActionFlowBackend",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ] + swiftNIOHTTP
        ),
        // The simulated mobile app: reducer, runtime, scenarios.
        .target(
            name: "ActionFlowClient",
            dependencies: ["ActionFlowModel", "ActionFlowTransport", "ActionFlowBackend", .product(name: "Yams", package: "Yams")]
        ),
        // ncursesw, wide-character API. No pkgConfig: its flags only repeat what the shim defines,
        // and SwiftPM warns about them.
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
        // Async-signal-safe terminal restore and signal flags, in C.
        .target(name: "CTerminalSupport"),
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
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ] + swiftNIOHTTP
        ),
        // The command line: the interface's launch, run, inspect, serve's options and the rest.
        .target(
            name: "ActionFlowCommands",
            dependencies: [
                "ActionFlowModel", "ActionFlowBackend", "ActionFlowTransport", "ActionFlowClient", "ActionFlowTUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `serve` itself, run by `actionflow-serve` (ServerProgram).
        .target(
            name: "ActionFlowServeCommands",
            dependencies: [
                "ActionFlowCommands", "ActionFlowClient", "ActionFlowServer", "ActionFlowBackend", "ActionFlowModel", "ActionFlowTransport", "ActionFlowTUI",
                "CTerminalSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The program; the commands live in ActionFlowCommands, which the tests link. Debug
        // builds and the test bundles stay dynamic; a release build links statically (above).
        .executableTarget(
            name: "actionflow",
            dependencies: ["ActionFlowCommands"],
            linkerSettings: programLinkerSettings
        ),
        // `actionflow serve` hands over to this program: the only one that links Hummingbird
        // (ServerProgram). It runs every other command as `actionflow`
        // does. `swift build` builds both; a dependency of `actionflow` on it would link it in.
        .executableTarget(name: "actionflow-serve", dependencies: ["ActionFlowServeCommands"], linkerSettings: programLinkerSettings),
        // Outside the product: the load tools (load generator, hostile clients, a loopback HTTP
        // client, a thread of its own for blocking work), used by the benchmarks and the tests.
        .target(
            name: "ActionFlowLoad",
            dependencies: ["ActionFlowModel", "ActionFlowServer"] + swiftNIOHTTP,
            path: "Benchmarks/Load"
        ),
        // A program on a pseudo-terminal of its own, for the terminal benchmark, in C.
        .target(name: "CPseudoTerminal", path: "Benchmarks/CPseudoTerminal"),
        // `actionflow-bench`: speed and memory figures of the programs beside it, each printed
        // beside a reference measured in the same run.
        .executableTarget(
            name: "actionflow-bench",
            dependencies: [
                "ActionFlowLoad", "ActionFlowModel", "ActionFlowBackend", "ActionFlowTransport", "ActionFlowClient",
                "ActionFlowServer", "CPseudoTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/Bench",
            linkerSettings: programLinkerSettings
        ),
        // Test helpers that several test targets share.
        .target(
            name: "TestSupport",
            dependencies: [
                "ActionFlowServer", "ActionFlowTransport", "ActionFlowModel", "ActionFlowTUI", "ActionFlowLoad",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "ActionFlowModelTests",
            dependencies: ["ActionFlowModel", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "ActionFlowBackendTests",
            dependencies: [
                "ActionFlowBackend", "ActionFlowTransport", "TestSupport", .product(name: "Yams", package: "Yams"),
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
                "ActionFlowServer", "ActionFlowTransport", "ActionFlowBackend", "ActionFlowModel", "ActionFlowClient", "ActionFlowLoad", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["Interop"]
        ),
        // The headless commands, run in-process.
        .testTarget(
            name: "ActionFlowCommandTests",
            dependencies: ["ActionFlowCommands", "ActionFlowServeCommands", "ActionFlowClient", "ActionFlowModel", "ActionFlowTransport", "ActionFlowServer", "ActionFlowTUI", "TestSupport"],
            exclude: ["Interop", "Fixtures"]
        ),
        .testTarget(name: "ActionFlowEndToEndTests", dependencies: ["TestSupport"]),
        // The fuzz targets' invariants (docs/testing.md, "Robustness and fuzzing"), shared by the fuzzer and by the
        // tests that replay every seed and every input a fuzzer once found.
        .target(
            name: "FuzzChecks",
            dependencies: ["ActionFlowModel", "ActionFlowBackend", "ActionFlowTransport", "ActionFlowClient", "ActionFlowTUI", "ActionFlowServer"],
            path: "Fuzz/Checks"
        ),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzChecks"]),
        .testTarget(name: "ActionFlowTUITests", dependencies: ["ActionFlowTUI", "ActionFlowClient", "ActionFlowModel", "ActionFlowBackend", "TestSupport"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer executable (docs/testing.md, "Robustness and fuzzing"): declared only when ACTIONFLOW_FUZZ=1, which
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
