// swift-tools-version: 6.0
// An address book: a few thousand people in a list with sections, a search field, pull to
// refresh and a page per person. The app is a library (ContactsApp) and a thin executable, so
// that its tests can open the very same window in a headless weston (the ScrollwayWestonHarness
// product) and drive it with real touches and keys.
import PackageDescription

let package = Package(
    name: "Contacts",
    dependencies: [.package(name: "Scrollway", path: "../..")],
    targets: [
        .target(name: "ContactsApp", dependencies: [.product(name: "Scrollway", package: "Scrollway")]),
        .executableTarget(name: "Contacts", dependencies: ["ContactsApp"]),
        .testTarget(
            name: "ContactsTests",
            dependencies: [
                "ContactsApp",
                .product(name: "Scrollway", package: "Scrollway"),
                .product(name: "ScrollwayWestonHarness", package: "Scrollway"),
                // The weston module the rig loads, built next to the tests where the rig looks.
                .product(name: "WestonTestInput", package: "Scrollway"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
