// swift-tools-version: 6.0
// A fullscreen photo kiosk: pages through a folder of PNG and JPEG photos, each zoomable. The app is a
// library (PhotoKioskApp) and a thin executable, so that its tests can open the very same window
// in a headless weston (the ScrollwayWestonHarness product) and drive it with real touches.
import PackageDescription

let package = Package(
    name: "PhotoKiosk",
    dependencies: [.package(name: "Scrollway", path: "../..")],
    targets: [
        .target(name: "PhotoKioskApp", dependencies: [.product(name: "Scrollway", package: "Scrollway")]),
        .executableTarget(name: "PhotoKiosk", dependencies: ["PhotoKioskApp"]),
        .testTarget(
            name: "PhotoKioskTests",
            dependencies: [
                "PhotoKioskApp",
                // Built for the tests that start the real executable in the rig.
                "PhotoKiosk",
                .product(name: "Scrollway", package: "Scrollway"),
                .product(name: "ScrollwayWestonHarness", package: "Scrollway"),
                // The weston module the rig loads, built next to the tests where the rig looks.
                .product(name: "WestonTestInput", package: "Scrollway"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
