import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRigs
import ScrollwayScrolling
import ScrollwayTestSupport
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// A real Wayland app in headless weston, exposed to AT-SPI by the platform itself
/// (`WaylandApp`'s accessibility) and read by libatspi (issue 37): the list scene's window, its
/// list and the rows that have cells, by their text.
@MainActor
@Suite struct AccessibilityInWestonTests {
    @Test func theListScenesRowsAreReadInWeston() throws {
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let rig = try WestonRig(width: 390, height: 844)
        defer { rig.stop() }
        let window = Scene.list.makeWindow(size: Size(width: 390, height: 844))
        let app = try WaylandApp(
            content: window, title: "Scrollway list", socket: rig.socketPath, appID: "scrollway-demo",
            accessibility: .session(address: try bus.sessionAddress))
        #expect(app.accessibility != nil, "the window was not served:\n\(bus.log)")
        try app.pump(until: { app.window.framesCommitted > 0 }, "the first frame")

        let desktop = try AccessibilityBusTests.client(
            ["tree", "--depth", "4"], in: bus, serve: { try app.step(maxWait: 0.01) })
        let apps = try #require(desktop["children"] as? [[String: Any]])
        let demo = try #require(apps.first { $0["name"] as? String == "scrollway-demo" }, "\(apps)")
        let frame = try #require((demo["children"] as? [[String: Any]])?.first)
        #expect(frame["name"] as? String == "Scrollway list" && frame["role"] as? String == "frame", "\(frame)")
        let list = try #require((frame["children"] as? [[String: Any]])?.first { $0["role"] as? String == "list" })
        let rows = (list["children"] as? [[String: Any]] ?? []).filter { $0["role"] as? String == "list item" }
        let view = try #require(window.view(named: "main") as? ListView)
        let cells = view.subviews.compactMap { $0 as? ListCell }.filter { !$0.isHidden }
        #expect(rows.count == cells.count && rows.count > 5, "\(rows.count) rows, \(cells.count) cells")
        #expect(Set(rows.compactMap { $0["name"] as? String }) == Set(cells.map(\.textLabel.text)))
    }
}
