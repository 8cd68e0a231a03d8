// swift-tools-version: 6.2
// Scrollway: a Wayland scrolling toolkit. Layers (bottom to top) follow DESIGN.md: C system
// modules, generated protocol glue, the pure core, drawing, views, scrolling, platforms, test rig.
import PackageDescription

/// A system library target: a module map + shim.h, located by pkg-config, installed from Debian
/// by Scripts/install-deps.sh (the `apt` provider only tells SwiftPM what to suggest).
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(
        name: name, path: "Sources/" + name.dropFirst("Scrollway".count), pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
    name: "Scrollway",
    products: [
        // What an app depends on: `import Scrollway` brings the whole public API (geometry,
        // views, scrolling, gesture scripts, the offscreen driver and the Wayland platform).
        .library(name: "Scrollway", targets: ["Scrollway"]),
        // The weston test rig, for apps that test themselves in headless weston.
        .library(name: "ScrollwayWestonHarness", targets: ["ScrollwayWestonHarness"]),
        // Every compositor as a headless rig (weston, sway): `CompositorRig`.
        .library(name: "ScrollwayRigs", targets: ["ScrollwayRigs"]),
        // The weston 10 module the rig loads with --modules=<absolute path to this .so>.
        .library(name: "WestonTestInput", type: .dynamic, targets: ["ScrollwayWestonTestInput"]),
        .executable(name: "scrollway", targets: ["ScrollwayCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // RealModule: exp/log/pow for the pure core without importing C.
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        // Diagnostics an app can route or silence (LoggingSystem.bootstrap).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // DocC: `swift package generate-documentation` (Scripts/build-docs.sh); no target depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C system modules (module maps only).
        systemLibrary("ScrollwayCWaylandClient", pkgConfig: "wayland-client", apt: ["libwayland-dev"]),
        systemLibrary("ScrollwayCXKBCommon", pkgConfig: "xkbcommon", apt: ["libxkbcommon-dev"]),
        systemLibrary("ScrollwayCPixman", pkgConfig: "pixman-1", apt: ["libpixman-1-dev"]),
        systemLibrary("ScrollwayCFcft", pkgConfig: "fcft", apt: ["libfcft-dev"]),
        systemLibrary("ScrollwayCFribidi", pkgConfig: "fribidi", apt: ["libfribidi-dev"]),
        systemLibrary("ScrollwayCPNG", pkgConfig: "libpng", apt: ["libpng-dev"]),
        systemLibrary("ScrollwayCTurboJPEG", pkgConfig: "libturbojpeg", apt: ["libturbojpeg0-dev"]),
        systemLibrary("ScrollwayCWeston", pkgConfig: "libweston-10", apt: ["libweston-10-dev"]),
        // sd-bus: the one D-Bus library (the desktops' rigs; accessibility), see BUILDING.md.
        systemLibrary("ScrollwayCSystemd", pkgConfig: "libsystemd", apt: ["libsystemd-dev"]),

        // C of our own, in C targets: the libc calls Swift cannot reach (memfd, timerfd, eventfd,
        // clocks) and the streaming copy and fill of window buffers.
        .target(name: "ScrollwayCSystem", path: "Sources/CSystem"),
        .target(name: "ScrollwayCStreaming", path: "Sources/CStreaming"),

        // Protocol glue: wayland-scanner output, committed once (Scripts/generate-protocols.sh).
        // The interface tables of the protocols both the client and the weston module speak.
        .target(
            name: "ScrollwayProtocolTables", path: "Sources/ProtocolTables", publicHeadersPath: "Generated/include"),
        .target(
            name: "ScrollwayWaylandProtocols",
            dependencies: ["ScrollwayCWaylandClient", "ScrollwayProtocolTables"],
            path: "Sources/WaylandProtocols",
            publicHeadersPath: "Generated/include"
        ),

        // Pure core: no C, no clock.
        .target(name: "ScrollwayGeometry", path: "Sources/Geometry"),
        .target(
            name: "ScrollwayPhysics",
            dependencies: ["ScrollwayGeometry", .product(name: "RealModule", package: "swift-numerics")],
            path: "Sources/Physics"
        ),
        // Cassowary's incremental simplex, for constraint layout (pure: no C, no clock).
        .target(
            name: "ScrollwayLayout",
            dependencies: ["ScrollwayGeometry", .product(name: "RealModule", package: "swift-numerics")],
            path: "Sources/Layout"),
        .target(
            name: "ScrollwayGestures", dependencies: ["ScrollwayGeometry", "ScrollwayPhysics"], path: "Sources/Gestures"
        ),

        // Drawing: pixman canvases, fcft text (shaped by HarfBuzz inside fcft, ordered by fribidi), PNG
        // and JPEG files.
        .target(
            name: "ScrollwayRaster",
            dependencies: [
                "ScrollwayGeometry", "ScrollwayCPixman", "ScrollwayCStreaming", "ScrollwayCFcft", "ScrollwayCFribidi",
                "ScrollwayCPNG", "ScrollwayCTurboJPEG", "ScrollwayCSystem",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Raster"),

        // The view system: view tree, backing images, compositing, damage, hit-testing.
        .target(
            name: "ScrollwayViews",
            dependencies: [
                "ScrollwayGeometry", "ScrollwayGestures", "ScrollwayLayout", "ScrollwayPhysics", "ScrollwayRaster",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Views"),

        // Scrolling: ScrollView (UIKit's semantics), indicators, zoom.
        .target(
            name: "ScrollwayScrolling",
            dependencies: [
                "ScrollwayGeometry", "ScrollwayPhysics", "ScrollwayGestures", "ScrollwayLayout", "ScrollwayRaster",
                "ScrollwayViews",
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "Logging", package: "swift-log"),
            ], path: "Sources/Scrolling"
        ),

        // Gesture scripts (the public JSON Lines format) and their strict parser.
        .target(
            name: "ScrollwayScripts", dependencies: ["ScrollwayGeometry", "ScrollwayGestures"], path: "Sources/Scripts"),

        // The Wayland client core both clients share: connection, registry, dispatch, errors,
        // shared memory.
        .target(
            name: "ScrollwayWaylandCore",
            dependencies: ["ScrollwayCWaylandClient", "ScrollwayCSystem", "ScrollwayGeometry"],
            path: "Sources/WaylandCore"),

        // Test rig: the weston module (C) and the Swift harness that drives it.
        .target(
            name: "ScrollwayWestonTestInput",
            dependencies: ["ScrollwayCWeston", "ScrollwayProtocolTables"],
            path: "Sources/WestonTestInput",
            publicHeadersPath: "Generated/include",
            linkerSettings: [
                .linkedLibrary("weston-10"), .linkedLibrary("weston-desktop-10"), .linkedLibrary("wayland-server"),
            ]
        ),
        // Client code for the protocols the rigs speak to other compositors (Protocols/rigs/).
        .target(
            name: "ScrollwayRigProtocols", dependencies: ["ScrollwayCWaylandClient"], path: "Sources/RigProtocols",
            publicHeadersPath: "Generated/include"),
        .target(
            name: "ScrollwayWestonHarness",
            dependencies: [
                "ScrollwayCSystem", "ScrollwayCWaylandClient", "ScrollwayCXKBCommon", "ScrollwayWaylandCore",
                "ScrollwayWaylandProtocols", "ScrollwayRaster", "ScrollwayGeometry",
            ], path: "Sources/WestonHarness"
        ),

        // D-Bus through sd-bus: values, blocking calls, passed descriptors.
        .target(name: "ScrollwayDBus", dependencies: ["ScrollwayCSystemd", "ScrollwayGeometry"], path: "Sources/DBus"),

        // Accessibility on Linux: the windows' accessibility trees served to AT-SPI over D-Bus.
        .target(
            name: "ScrollwayAtSpi",
            dependencies: [
                "ScrollwayDBus", "ScrollwayGeometry", "ScrollwayGestures", "ScrollwayRaster", "ScrollwayViews",
            ],
            path: "Sources/AtSpi"),

        // The compositor rigs: weston's and the desktops', one `CompositorRig` protocol.
        .target(
            name: "ScrollwayRigs",
            dependencies: [
                "ScrollwayCWaylandClient", "ScrollwayDBus", "ScrollwayGeometry", "ScrollwayRaster",
                "ScrollwayRigProtocols", "ScrollwayWaylandCore",
                "ScrollwayWaylandProtocols", "ScrollwayWestonHarness",
            ], path: "Sources/Rigs"),

        // The Wayland platform: a real window, shm buffers, frame pacing, every input device.
        .target(
            name: "ScrollwayWayland",
            dependencies: [
                "ScrollwayCWaylandClient", "ScrollwayCSystem", "ScrollwayCXKBCommon", "ScrollwayWaylandCore",
                "ScrollwayWaylandProtocols", "ScrollwayGeometry", "ScrollwayGestures", "ScrollwayRaster",
                "ScrollwayViews", "ScrollwayAtSpi", "ScrollwayDBus", "ScrollwayScripts",
                .product(name: "Logging", package: "swift-log"),
            ], path: "Sources/Wayland"
        ),

        // The offscreen platform: the frame driver on a virtual clock, a peer of the Wayland
        // platform (neither knows the scrolling layer).
        .target(
            name: "ScrollwayHeadless",
            dependencies: ["ScrollwayGeometry", "ScrollwayGestures", "ScrollwayViews", "ScrollwayScripts"],
            path: "Sources/Headless"),

        // The replay layer above the platforms: one `ScriptTarget` protocol, played offscreen
        // (`HeadlessPlayer`) or in a compositor (`WestonTarget`), traces recorded the same way.
        .target(
            name: "ScrollwayReplay",
            dependencies: [
                "ScrollwayGeometry", "ScrollwayGestures", "ScrollwayPhysics", "ScrollwayRaster", "ScrollwayViews",
                "ScrollwayScrolling", "ScrollwayScripts", "ScrollwayHeadless", "ScrollwayWayland",
                "ScrollwayWaylandCore", "ScrollwayWestonHarness", "ScrollwayRigs",
            ], path: "Sources/Replay"),

        // Trace plots (`scrollway plot`): a module of their own that `import Scrollway` does not export.
        .target(
            name: "ScrollwayPlot",
            dependencies: [
                "ScrollwayGeometry", "ScrollwayRaster", "ScrollwayScripts",
                .product(name: "RealModule", package: "swift-numerics"),
            ], path: "Sources/Plot"),

        // Benchmarks (`scrollway bench`): offscreen, end to end in weston, and memory over a long run.
        .target(
            name: "ScrollwayBench",
            dependencies: [
                "ScrollwayAtSpi", "ScrollwayDBus", "ScrollwayDemoScenes", "ScrollwayGeometry", "ScrollwayGestures",
                "ScrollwayHeadless", "ScrollwayRaster", "ScrollwayReplay", "ScrollwayRigs", "ScrollwayScripts",
                "ScrollwayScrolling", "ScrollwayViews", "ScrollwayWayland", "ScrollwayWaylandCore",
                "ScrollwayWestonHarness",
            ], path: "Sources/Bench"),

        // Products: the demo scenes and the command line.
        .target(
            name: "ScrollwayDemoScenes",
            dependencies: [
                "ScrollwayGeometry", "ScrollwayLayout", "ScrollwayRaster", "ScrollwayScrolling", "ScrollwayViews",
            ],
            path: "Sources/DemoScenes"),
        // The umbrella module an app imports.
        .target(
            name: "Scrollway",
            dependencies: [
                "ScrollwayGeometry", "ScrollwayPhysics", "ScrollwayGestures", "ScrollwayLayout", "ScrollwayRaster",
                "ScrollwayViews", "ScrollwayScrolling", "ScrollwayScripts", "ScrollwayHeadless", "ScrollwayReplay",
                "ScrollwayWayland", "ScrollwayWaylandCore",
            ],
            path: "Sources/Scrollway"
        ),
        .executableTarget(
            name: "ScrollwayCLI",
            dependencies: [
                "ScrollwayBench", "ScrollwayDemoScenes", "ScrollwayGeometry", "ScrollwayGestures", "ScrollwayHeadless",
                "ScrollwayPhysics", "ScrollwayPlot", "ScrollwayRaster", "ScrollwayReplay", "ScrollwayScripts",
                "ScrollwayScrolling", "ScrollwayViews", "ScrollwayWayland", "ScrollwayWaylandCore",
                "ScrollwayWestonHarness", "ScrollwayRigs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/scrollway"
        ),

        // Helpers shared by test targets (running the CLI, seeded randomness).
        .target(
            name: "ScrollwayTestSupport",
            dependencies: ["ScrollwayGeometry", "ScrollwayWaylandCore", "ScrollwayWestonHarness"]),

        // Tests.
        .testTarget(name: "GeometryTests", dependencies: ["ScrollwayGeometry"]),
        .testTarget(name: "PhysicsTests", dependencies: ["ScrollwayPhysics", "ScrollwayTestSupport"]),
        .testTarget(name: "GesturesTests", dependencies: ["ScrollwayGestures"]),
        .testTarget(
            name: "LayoutTests", dependencies: ["ScrollwayLayout", "ScrollwayGeometry", "ScrollwayTestSupport"]),
        .testTarget(
            name: "RasterTests",
            dependencies: [
                "ScrollwayRaster", "ScrollwayCFcft", "ScrollwayCPixman", "ScrollwayCStreaming", "ScrollwayTestSupport",
            ]),
        // The README's and the library guide's examples import only `Scrollway`, as an app does.
        .testTarget(
            name: "ViewsTests",
            dependencies: ["ScrollwayViews", "ScrollwayDemoScenes", "Scrollway", "ScrollwayTestSupport"]),
        // The same scenarios under every installed compositor (weston, sway, mutter, KWin, phoc).
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "ScrollwayDemoScenes", "ScrollwayGeometry", "ScrollwayPhysics", "ScrollwayRaster", "ScrollwayReplay",
                "ScrollwayRigs", "ScrollwayScripts", "ScrollwayScrolling", "ScrollwayViews", "ScrollwayWayland",
                "ScrollwayWaylandCore", "ScrollwayWestonHarness", "ScrollwayTestSupport",
            ]),
        .testTarget(
            name: "AccessibilityTests",
            dependencies: [
                "ScrollwayAtSpi", "ScrollwayViews", "ScrollwayWayland", "ScrollwayDemoScenes", "ScrollwayDBus",
                "ScrollwayGeometry", "ScrollwayGestures", "ScrollwayHeadless", "ScrollwayRigs", "ScrollwayScrolling",
                "ScrollwayTestSupport", "ScrollwayWestonHarness",
            ]),
        .testTarget(name: "DBusTests", dependencies: ["ScrollwayDBus", "ScrollwayGeometry", "ScrollwayTestSupport"]),
        .testTarget(
            name: "WestonRigTests",
            dependencies: ["ScrollwayGeometry", "ScrollwayWestonHarness", "ScrollwayRaster", "ScrollwayTestSupport"]),
        .testTarget(
            name: "ScriptsTests", dependencies: ["ScrollwayScripts", "ScrollwayGestures", "ScrollwayTestSupport"]),
        .testTarget(
            name: "HeadlessTests",
            dependencies: [
                "ScrollwayHeadless", "ScrollwayReplay", "ScrollwayDemoScenes", "ScrollwayScripts", "ScrollwayScrolling",
                "ScrollwayViews", "ScrollwayGeometry", "ScrollwayGestures", "ScrollwayTestSupport", "Scrollway",
                "ScrollwayWestonHarness",
            ]
        ),
        .testTarget(
            name: "PlotTests",
            dependencies: [
                "ScrollwayPlot", "ScrollwayReplay", "ScrollwayScripts", "ScrollwayGeometry", "ScrollwayRaster",
                "ScrollwayTestSupport",
            ]
        ),
        .testTarget(
            name: "PlayTests",
            dependencies: [
                "ScrollwayBench", "ScrollwayReplay", "ScrollwayGeometry", "ScrollwayScrolling", "ScrollwayViews",
                "ScrollwayWayland",
                "ScrollwayWestonHarness", "ScrollwayRaster", "ScrollwayRigs", "ScrollwayTestSupport",
            ]),
        .testTarget(
            name: "WaylandTests",
            dependencies: [
                "ScrollwayWayland", "ScrollwayWestonHarness", "ScrollwayDemoScenes", "ScrollwayHeadless",
                "ScrollwayReplay", "ScrollwayScrolling",
                "ScrollwayViews", "ScrollwayGestures", "ScrollwayRaster", "ScrollwayPhysics", "ScrollwayCWaylandClient",
                "ScrollwayScripts", "ScrollwayWaylandCore", "ScrollwayWaylandProtocols",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ScrollingTests",
            dependencies: [
                "ScrollwayHeadless", "ScrollwayScripts", "ScrollwayLayout",
                "ScrollwayScrolling", "ScrollwayViews", "ScrollwayGestures", "ScrollwayPhysics", "ScrollwayTestSupport",
                // A collection's refused updates are read from its logger (CollectionUpdateTests).
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The seeded fuzzers: a quick share of their cases in a debug build, all of them in
        // CI's optimized build of this target alone (`FuzzBudget`, `SCROLLWAY_TEST_TARGETS`).
        .testTarget(
            name: "FuzzTests",
            dependencies: [
                "ScrollwayDemoScenes", "ScrollwayGeometry", "ScrollwayGestures", "ScrollwayHeadless", "ScrollwayLayout",
                "ScrollwayPlot", "ScrollwayRaster", "ScrollwayReplay", "ScrollwayScripts", "ScrollwayScrolling",
                "ScrollwayViews", "ScrollwayTestSupport",
            ]),
        .testTarget(
            name: "SystemLibraryTests",
            dependencies: [
                "ScrollwayCWaylandClient", "ScrollwayCSystem", "ScrollwayCXKBCommon", "ScrollwayCPixman",
                "ScrollwayCPNG", "ScrollwayCWeston", "ScrollwayGeometry", "ScrollwayWaylandProtocols",
                "ScrollwayWestonHarness",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// A warning is an error in every Swift target, tests included, in every build: one set of
// compiler flags for the test loop, CI, `swift run` and the documentation plugin, so none of
// them rebuilds the others' modules for a flag of its own (`-Xswiftc -warnings-as-errors` on
// one command line would). In particular every conversion from a floating-point number to an integer goes
// through a checked one (`init(clamping:rounding:in:)` or `init(exactly:)`): the standard
// library's `Int(_: Double)` traps on NaN and out of range, and ScrollwayGeometry shadows it,
// deprecated, in this package (Sources/Geometry/UncheckedConversions.swift), so a use is an
// error. An app that depends on Scrollway through a URL is not affected (SwiftPM ignores a
// remote package's warning settings).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
}

// `SCROLLWAY_TEST_TARGETS=A,B swift test` declares only those test targets, so a build compiles
// only them and what they depend on: the loop on one layer's tests, and CI's optimized build of
// the fuzzers (an optimized build of every test target takes two and a half times as long as
// one of the libraries). An unknown name stops the manifest, naming the test targets there are.
if let chosen = Context.environment["SCROLLWAY_TEST_TARGETS"] {
    let names = chosen.split(separator: ",").map { String($0.filter { !$0.isWhitespace }) }.filter { !$0.isEmpty }
    let tests = package.targets.filter { $0.type == .test }.map(\.name)
    if names.isEmpty { fatalError("SCROLLWAY_TEST_TARGETS is set but names no test target") }
    for name in names where !tests.contains(name) {
        fatalError(
            "SCROLLWAY_TEST_TARGETS: no test target '\(name)'; the test targets are \(tests.joined(separator: ", "))")
    }
    package.targets.removeAll { $0.type == .test && !names.contains($0.name) }
}
