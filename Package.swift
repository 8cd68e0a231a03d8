// swift-tools-version: 6.0
// Scrollway: a Wayland scrolling toolkit. Layers (bottom to top) follow DESIGN.md: C system
// modules, generated protocol glue, the pure core, drawing, views, scrolling, platforms, test rig.
import PackageDescription

/// A system library target: a module map + shim.h, located by pkg-config, installed from Debian
/// by Scripts/install-deps.sh (the `apt` provider only tells SwiftPM what to suggest).
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
    name: "Scrollway",
    products: [
        .library(name: "Geometry", targets: ["Geometry"]),
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "Views", targets: ["Views"]),
        .library(name: "Scrolling", targets: ["Scrolling"]),
        .library(name: "Scripts", targets: ["Scripts"]),
        .library(name: "Headless", targets: ["Headless"]),
        .library(name: "Wayland", targets: ["Wayland"]),
        .library(name: "WestonHarness", targets: ["WestonHarness"]),
        // The weston 10 module the rig loads with --modules=<absolute path to this .so>.
        .library(name: "WestonTestInput", type: .dynamic, targets: ["WestonTestInput"]),
        .executable(name: "scrollway", targets: ["scrollway"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // RealModule: exp/log/pow for the pure core without importing C.
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    ],
    targets: [
        // C system modules (module maps only).
        systemLibrary("CWaylandClient", pkgConfig: "wayland-client", apt: ["libwayland-dev"]),
        systemLibrary("CXKBCommon", pkgConfig: "xkbcommon", apt: ["libxkbcommon-dev"]),
        systemLibrary("CPixman", pkgConfig: "pixman-1", apt: ["libpixman-1-dev"]),
        systemLibrary("CFcft", pkgConfig: "fcft", apt: ["libfcft-dev"]),
        systemLibrary("CPNG", pkgConfig: "libpng", apt: ["libpng-dev"]),
        systemLibrary("CWeston", pkgConfig: "libweston-10", apt: ["libweston-10-dev"]),

        // Protocol glue: wayland-scanner output, committed (Scripts/generate-protocols.sh).
        .target(
            name: "WaylandProtocols",
            dependencies: ["CWaylandClient"],
            path: "Sources/WaylandProtocols",
            publicHeadersPath: "Generated/include"
        ),

        // Pure core: no C, no clock.
        .target(name: "Geometry"),
        .target(
            name: "Physics",
            dependencies: ["Geometry", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(name: "Gestures", dependencies: ["Geometry", "Physics"]),

        // Drawing: pixman canvases, fcft text, PNG.
        .target(name: "Raster", dependencies: ["Geometry", "CPixman", "CFcft", "CPNG"]),

        // The view system: view tree, backing images, compositing, damage, hit-testing.
        .target(name: "Views", dependencies: ["Geometry", "Gestures", "Raster"]),

        // Scrolling: ScrollView (UIKit's semantics), indicators, zoom.
        .target(
            name: "Scrolling",
            dependencies: [
                "Geometry", "Physics", "Gestures", "Raster", "Views",
                .product(name: "RealModule", package: "swift-numerics"),
            ]
        ),

        // Gesture scripts (the public JSON Lines format) and their strict parser.
        .target(name: "Scripts", dependencies: ["Gestures"]),

        // The Wayland client core both clients share: connection, registry, dispatch, errors,
        // shared memory.
        .target(name: "WaylandCore", dependencies: ["CWaylandClient"]),

        // Test rig: the weston module (C) and the Swift harness that drives it.
        .target(
            name: "WestonTestInput",
            dependencies: ["CWeston"],
            path: "Sources/WestonTestInput",
            publicHeadersPath: "Generated/include",
            linkerSettings: [.linkedLibrary("weston-10"), .linkedLibrary("wayland-server")]
        ),
        .target(
            name: "WestonHarness",
            dependencies: ["CWaylandClient", "CXKBCommon", "WaylandCore", "WaylandProtocols", "Raster", "Geometry"]
        ),

        // The Wayland platform: a real window, shm buffers, frame pacing, every input device.
        .target(
            name: "Wayland",
            dependencies: [
                "CWaylandClient", "CXKBCommon", "WaylandCore", "WaylandProtocols", "Geometry", "Gestures", "Raster",
                "Views",
            ]
        ),

        // The offscreen platform: virtual clock, scripts in, traces and screenshots out.
        .target(name: "Headless", dependencies: ["Geometry", "Gestures", "Raster", "Views", "Scrolling", "Scripts"]),

        // Products: the demo scenes and the command line.
        .target(name: "DemoScenes", dependencies: ["Geometry", "Raster", "Scrolling", "Views"]),
        .executableTarget(
            name: "scrollway",
            dependencies: [
                "DemoScenes", "Geometry", "Gestures", "Headless", "Raster", "Scripts", "Scrolling", "Views", "Wayland",
                "WestonHarness",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Helpers shared by test targets (running the CLI, seeded randomness).
        .target(name: "ScrollwayTestSupport", dependencies: ["WestonHarness"]),

        // Tests.
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "PhysicsTests", dependencies: ["Physics"]),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "CFcft", "CPixman"]),
        .testTarget(name: "ViewsTests", dependencies: ["Views", "DemoScenes"]),
        .testTarget(name: "WestonRigTests", dependencies: ["WestonHarness", "Raster", "ScrollwayTestSupport"]),
        .testTarget(name: "ScriptsTests", dependencies: ["Scripts", "Gestures", "ScrollwayTestSupport"]),
        .testTarget(
            name: "HeadlessTests",
            dependencies: [
                "Headless", "DemoScenes", "Scripts", "Scrolling", "Views", "Geometry", "Gestures",
                "ScrollwayTestSupport",
            ]
        ),
        .testTarget(name: "PlayTests", dependencies: ["WestonHarness", "Raster", "ScrollwayTestSupport"]),
        .testTarget(
            name: "WaylandTests",
            dependencies: [
                "Wayland", "WestonHarness", "DemoScenes", "Scrolling", "Views", "Raster", "Physics", "CWaylandClient",
            ]
        ),
        .testTarget(
            name: "ScrollingTests", dependencies: ["Scrolling", "Views", "Gestures", "Physics", "ScrollwayTestSupport"]
        ),
        .testTarget(
            name: "SystemLibraryTests",
            dependencies: [
                "CWaylandClient", "CXKBCommon", "CPixman", "CPNG", "CWeston",
                "WaylandProtocols", "WestonHarness",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
