// swift-tools-version: 6.0
// The smallest Scrollway app: a window with a scroll view of rows. It depends on Scrollway by
// path, as an app in its own repository would by URL.
import PackageDescription

let package = Package(
    name: "HelloScroll",
    dependencies: [.package(name: "Scrollway", path: "../..")],
    targets: [
        .executableTarget(name: "HelloScroll", dependencies: [.product(name: "Scrollway", package: "Scrollway")])
    ],
    swiftLanguageModes: [.v6]
)
